/** The messages between the serving thread and the writer thread (see writer-host.ts). */
import type { LogRecord } from "../../../logger.js";
import type { ReaderLimits } from "../pool/reader-pool.js";

/** What the writer thread starts with: where the store is, the readers' limits, the shared write turns. */
export interface WriterData {
  readonly url: string;
  readonly authToken: string | undefined;
  readonly reading: ReaderLimits;
  readonly readersUrl: string | undefined;
  /** The free-space floor in MB (`PKS_MIN_FREE_MB`): below it no file is claimed. */
  readonly minFreeMb: number;
  /** The serving connection's WriteTurns memory. */
  readonly turns: SharedArrayBuffer;
}

export type WriterRequest =
  | { readonly type: "kick" }
  | { readonly type: "idle"; readonly id: number }
  | { readonly type: "collect"; readonly id: number }
  | { readonly type: "stop" };

export type WriterAnswer =
  | { readonly type: "started" }
  | { readonly type: "start-failed"; readonly message: string }
  | { readonly type: "idle"; readonly id: number }
  | { readonly type: "collected"; readonly id: number }
  | { readonly type: "stopped" }
  | { readonly type: "log"; readonly record: LogRecord };
