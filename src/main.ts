#!/usr/bin/env node
import { setFlagsFromString } from "node:v8";
import { PKS_VERSION } from "./version.js";

/**
 * V8 optimises a function once it has run a budget of bytecode (66 KB by
 * default). Every thread of the process (serving, writer, reader, accept)
 * is an isolate that optimises its own functions anew, on the same two
 * background threads, and on a cold ingest of vuejs/core those threads
 * spent 6.0–7.6 s of CPU (of 22–29 s for the whole process), two thirds of
 * it in the optimising compiler, much of it on code that runs warm for a
 * moment (start-up, migrations, a reader's first files). At four times the
 * budget the code that stays hot is still optimised: the background
 * threads' CPU fell to 3.4–4.0 s and the process's to 19–23 s. Set before
 * any thread starts, it holds for every isolate of the process.
 */
setFlagsFromString("--interrupt-budget=270336");

/**
 * `pks --version` answers before the command line is built: building it
 * loads every command and the app behind them, a second's work for one
 * line that tools (installers, MCP clients checking the binary) ask often.
 */
const args = process.argv.slice(2);
if (args.length === 1 && (args[0] === "--version" || args[0] === "-V")) {
  process.stdout.write(`${PKS_VERSION}\n`);
} else {
  const [{ buildCli }, { isAppError }] = await Promise.all([import("./cli/build-cli.js"), import("./errors.js")]);
  void buildCli(process.argv)
    .then((cli) => cli.parseAsync(process.argv))
    .catch((err: unknown) => {
      const message = isAppError(err) ? JSON.stringify(err.toEnvelope()) : err instanceof Error ? err.message : String(err);
      process.stderr.write(`pks: ${message}\n`);
      process.exit(1);
    });
}
