#!/usr/bin/env node
import { buildCli } from "./cli/build-cli.js";
import { isAppError } from "./errors.js";

buildCli()
  .parseAsync(process.argv)
  .catch((err: unknown) => {
    const message = isAppError(err) ? JSON.stringify(err.toEnvelope()) : err instanceof Error ? err.message : String(err);
    process.stderr.write(`pks: ${message}\n`);
    process.exit(1);
  });
