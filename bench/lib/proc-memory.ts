/**
 * This process's resident memory from /proc (Linux): the current RSS, the
 * peak since start or since the last reset (VmHWM), and the reset itself
 * (writing 5 to clear_refs resets the peak). Worker threads share the
 * process, so reader threads are counted; child processes are not.
 */
import { readFileSync, writeFileSync } from "node:fs";

function statusField(name: string): number | undefined {
  try {
    const m = new RegExp(`^${name}:\\s+(\\d+) kB`, "m").exec(readFileSync("/proc/self/status", "utf8"));
    return m ? Number(m[1]) * 1024 : undefined;
  } catch {
    return undefined;
  }
}

/** Current resident set in bytes. */
export function rssBytes(): number {
  return statusField("VmRSS") ?? process.memoryUsage.rss();
}

/** Peak resident set in bytes since start or the last `resetPeakRss`; undefined where /proc has none. */
export function peakRssBytes(): number | undefined {
  return statusField("VmHWM");
}

/** Starts a new peak window; false where the kernel does not allow it. */
export function resetPeakRss(): boolean {
  try {
    writeFileSync("/proc/self/clear_refs", "5");
    return true;
  } catch {
    return false;
  }
}

/**
 * Samples RSS every `everyMs` as a cross-check of VmHWM (and the only peak
 * where /proc has none): `stop` answers the largest sample.
 */
export function sampleRss(everyMs = 100): { stop(): number } {
  let max = rssBytes();
  const timer = setInterval(() => {
    max = Math.max(max, rssBytes());
  }, everyMs);
  timer.unref();
  return {
    stop() {
      clearInterval(timer);
      return Math.max(max, rssBytes());
    },
  };
}
