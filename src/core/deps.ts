import type { Config } from "../config.js";
import type { Db } from "../store/db.js";
import type { TokenCounter } from "../retrieve/token-counter.js";
import type { CursorCodec } from "./cursor.js";

/** Milliseconds since the epoch; injected so tests can drive time. */
export type Clock = () => number;

/** What actions and routes are given to do their work. Wired once in `createApp`. */
export interface ServiceDeps {
  readonly config: Config;
  readonly db: Db;
  readonly clock: Clock;
  readonly cursors: CursorCodec;
  /** Counts tokens in the configured tiktoken encoding. */
  readonly tokens: TokenCounter;
}
