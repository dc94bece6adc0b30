/**
 * Turns at the write lock between the threads of one process that each hold
 * a connection to the same file: the main thread (requests: sessions, rate
 * events, accepted uploads, claims) and the writer thread (readings and
 * what follows from them). SQLite's busy handler polls; the writer, which
 * commits batch after batch, would take the lock again before a waiting
 * request's next poll came. So a request that waits says so here, and the
 * writer lets it go first before it opens its next transaction (at most
 * WRITER_DEFERS_MS: a stuck request never stops the readings). Lives in a
 * SharedArrayBuffer, so the counter is the same memory in both threads.
 */

/** How long the writer lets waiting requests go first, at most, before each transaction. */
export const WRITER_DEFERS_MS = 250;

export class WriteTurns {
  /** Index 0: requests waiting for the write lock. */
  readonly #waiting: Int32Array;

  constructor(buffer: SharedArrayBuffer = new SharedArrayBuffer(4)) {
    this.#waiting = new Int32Array(buffer);
  }

  /** The shared memory, to hand to the other thread. */
  get buffer(): SharedArrayBuffer {
    return this.#waiting.buffer as SharedArrayBuffer;
  }

  /** A request starts waiting for the lock; call the answer once it has it (or gave up). */
  want(): () => void {
    Atomics.add(this.#waiting, 0, 1);
    let done = false;
    return () => {
      if (done) return;
      done = true;
      Atomics.sub(this.#waiting, 0, 1);
    };
  }

  /** Resolves once no request waits for the lock, or after `maxMs`. */
  async yieldToRequests(maxMs = WRITER_DEFERS_MS): Promise<void> {
    const deadline = performance.now() + maxMs;
    while (Atomics.load(this.#waiting, 0) > 0 && performance.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 1));
    }
  }
}
