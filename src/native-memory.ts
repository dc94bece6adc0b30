import { createRequire } from "node:module";

/**
 * The C allocator's memory, on Linux with glibc.
 *
 * About a third of the served process's peak RSS on a 4 M-line cold ingest
 * was glibc's malloc arenas, not V8's heaps: every thread that allocates
 * (serving, accept, writer, reader, V8's compiler threads, SQLite) gets an
 * arena of its own, up to eight per core, and keeps what it freed there
 * (192 MB of arenas and a 43 MB main heap at the peak of 619 MB). Two
 * settings bound it: the number of arenas (`mallopt(M_ARENA_MAX)`, which
 * glibc otherwise reads only from the environment at start, too late for a
 * command that was already started), and giving freed pages back
 * (`malloc_trim`, which glibc does only for the top of each heap).
 *
 * Node has no binding for either. koffi, a maintained FFI with prebuilt
 * binaries in its npm package, calls them without a compiler at install;
 * the alternative, a native addon of our own, would need one on every
 * machine. Where koffi or glibc is missing (macOS, musl, Windows) both
 * settings are skipped and the process runs as before.
 */
export interface Malloc {
  /** `mallopt(M_ARENA_MAX, n)`: at most `n` arenas from now on (threads that have one keep it). */
  limitArenas(n: number): boolean;
  /** `malloc_trim(0)` on a libuv pool thread: every arena's free pages go back to the system. */
  trim(): Promise<void>;
}

const M_ARENA_MAX = -8;

let loaded: Malloc | null | undefined;

/** glibc's allocator through koffi, or `null` where either is missing; loaded once per process. */
export function glibcMalloc(): Malloc | null {
  if (loaded !== undefined) return loaded;
  loaded = null;
  if (process.platform !== "linux") return loaded;
  try {
    const koffi = createRequire(import.meta.url)("koffi") as typeof import("koffi");
    const libc = koffi.load("libc.so.6");
    const mallopt = libc.func("int mallopt(int, int)");
    const mallocTrim = libc.func("int malloc_trim(size_t)");
    loaded = {
      limitArenas: (n) => mallopt(M_ARENA_MAX, n) === 1,
      trim: () => new Promise<void>((resolve, reject) => mallocTrim.async(0, (err: unknown) => (err ? reject(err) : resolve()))),
    };
  } catch {
    // No koffi binary for this platform, or no glibc (musl has no malloc_trim): nothing to tune.
  }
  return loaded;
}

/** How often the trimmer looks at the resident size. */
const LOOK_MS = 1000;

/**
 * Gives freed C memory back once the process's resident size has grown by
 * `growthMb` since the last trim ended. A trim walks every arena's free
 * chunks and holds each arena's lock while it does (78 ms on average and up
 * to 344 ms during the 4 M-line ingest), and a thread that allocates from
 * that arena meanwhile waits. So it runs on a libuv pool thread, never on
 * the serving thread, one at a time, and only after growth: a process whose
 * resident size stays level never trims.
 * One per process: apps in one process share it, and it stops with the last.
 */
export class MallocTrimmer {
  private users = 0;
  private timer: NodeJS.Timeout | undefined;
  private floor = 0;
  private running = false;

  constructor(
    private readonly malloc: Malloc,
    private readonly growthMb: number,
    private readonly rss: () => number = () => process.memoryUsage.rss(),
  ) {}

  start(): void {
    if (this.growthMb <= 0 || this.users++ > 0) return;
    this.floor = this.rss();
    this.timer = setInterval(() => this.look(), LOOK_MS);
    this.timer.unref();
  }

  stop(): void {
    if (this.users === 0 || --this.users > 0) return;
    clearInterval(this.timer);
    this.timer = undefined;
  }

  /** One user's share of the trimmer: stopping it ends that share once, however often it is called (an app closed twice). */
  use(): { stop(): Promise<void> } {
    this.start();
    let stopped = false;
    return {
      stop: async () => {
        if (!stopped) this.stop();
        stopped = true;
      },
    };
  }

  /** One look: a trim when the resident size has grown past the floor by the bound. */
  look(): void {
    if (this.running || this.rss() < this.floor + this.growthMb * 1024 * 1024) return;
    this.running = true;
    void this.malloc
      .trim()
      .catch(() => undefined)
      .finally(() => {
        this.running = false;
        this.floor = this.rss();
      });
  }
}

let trimmer: MallocTrimmer | undefined;

/**
 * Applies the allocator settings for this process (config `malloc`): the
 * arena bound before the reader and writer threads start, and the trimmer
 * (the same one for every app in the process). Returns what to stop when
 * the app closes.
 */
export function useNativeMemory(settings: { readonly arenas: number; readonly trimMb: number }): { stop(): Promise<void> } {
  const malloc = glibcMalloc();
  if (!malloc) return { stop: async () => undefined };
  if (settings.arenas > 0) malloc.limitArenas(settings.arenas);
  trimmer ??= new MallocTrimmer(malloc, settings.trimMb);
  return trimmer.use();
}
