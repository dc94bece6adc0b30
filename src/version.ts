import { readFileSync } from "node:fs";
import { join } from "node:path";
import { packageRoot } from "./package-root.js";

/** pks's own version, from its package.json. */
export const PKS_VERSION: string = (
  JSON.parse(readFileSync(join(packageRoot(), "package.json"), "utf8")) as { version: string }
).version;

/**
 * The version of the HTTP API this server speaks (OpenAPI `info.version`):
 * the contract's own number, which moves only when the API does — the
 * package version moves with every release of the program.
 */
export const API_VERSION = "1.0.0";
