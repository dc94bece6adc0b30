import type { CursorCodec } from "./cursor.js";

/** Milliseconds since the epoch; injected so tests can drive time. */
export type Clock = () => number;

/** Counts the tokens of a text in the configured tiktoken encoding. */
export type CountTokens = (text: string) => number;

/** Tells the reading worker that files were queued, so it need not wait for its next poll. */
export interface ReadingQueue {
  kick(): void;
}

/**
 * What a handler is given besides the database and the scope: the small,
 * pure capabilities a domain needs (time, cursors, token counts, a nudge to
 * the reader, storage limits). Wired once in `createApp`; domains take it as their last
 * argument, never the whole application.
 */
export interface Tools {
  readonly clock: Clock;
  readonly cursors: CursorCodec;
  readonly tokens: CountTokens;
  readonly reading: ReadingQueue;
  /** Storage limits: the most chunk bytes one project may hold. */
  readonly storage: { readonly quotaBytes: number };
}
