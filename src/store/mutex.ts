/** A FIFO async lane: tasks run one at a time in the order they arrived. */
export interface Mutex {
  run<T>(task: () => Promise<T>): Promise<T>;
}

/** Creates an empty lane. */
export function createMutex(): Mutex {
  let tail: Promise<unknown> = Promise.resolve();
  return {
    run<T>(task: () => Promise<T>): Promise<T> {
      const result = tail.then(task, task);
      tail = result.catch(() => undefined);
      return result;
    },
  };
}
