#!/usr/bin/env node
import { PKS_VERSION } from "./version.js";

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
