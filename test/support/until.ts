/**
 * Polls `read` every `everyMs` until `done` holds for its answer; fails after
 * `ms`, naming `what` and the last answer. For state a server reaches on its
 * own time (a task running, a reading settled, a page updated).
 */
export async function until<T>(read: () => Promise<T>, done: (v: T) => boolean, ms: number, what: string, everyMs = 50): Promise<T> {
  const started = Date.now();
  for (;;) {
    const v = await read();
    if (done(v)) return v;
    if (Date.now() - started > ms) throw new Error(`timed out waiting for ${what}: ${JSON.stringify(v)}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}
