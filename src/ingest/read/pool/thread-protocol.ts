/**
 * The messages between the reader pool and its threads. A thread reads its
 * requests one at a time, in the order they came, and answers in that order,
 * so no message needs an id.
 */
import type { Carried } from "../derivers/index.js";
import type { LogRecord } from "../../../logger.js";
import type { ReadOutput } from "../../../readers/reader.js";

/** What a thread is given at start: the module whose `readers` export it runs. */
export interface ThreadData {
  readonly readersUrl: string;
}

/** One file to read; `bytes` owns its buffer, which is transferred, not copied. */
export interface ThreadRequest {
  readonly path: string;
  readonly contentType: string;
  readonly bytes: Uint8Array;
  /** The caller named this path with includeSecret: the credential scan lets it through. */
  readonly includeSecret: boolean;
}

/** A thread's messages: ready once its readers are loaded, then one answer per request. */
export type ThreadAnswer =
  | { readonly type: "ready" }
  /**
   * `carried`: what the derivers worked out beside the reader, by deriver
   * name (see derivers/deriver.ts); `factionHashes`: each faction's content
   * hash (`factionHash`), worked out in the thread so persisting a reading
   * does not hash every faction again; `textAtLines`: which factions' text
   * is exactly their lines of the bytes (stored as such: see
   * store/graph/faction-text.ts).
   */
  | {
      readonly type: "done";
      readonly output: ReadOutput;
      readonly carried: Carried;
      readonly factionHashes?: readonly string[];
      readonly textAtLines?: readonly boolean[];
    }
  | { readonly type: "failed"; readonly message: string }
  /**
   * A record a reader logged: the thread (or process) writes none itself,
   * its pool writes it, so `PKS_LOG` is obeyed in one place and MCP sessions
   * hear it too. It may come at any time and answers no request.
   */
  | { readonly type: "log"; readonly record: LogRecord }
  /** The bytes or the reading look like a credential: the file fails and nothing of it is kept. */
  | { readonly type: "refused"; readonly message: string }
  /**
   * What the thread holds after an answer, in bytes: its heap as committed
   * and its memory outside the heap (tree-sitter's WASM memory, buffers).
   * It comes just before each reading's answer and answers no request.
   */
  | { readonly type: "held"; readonly bytes: number };
