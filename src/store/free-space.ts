import { statfs } from "node:fs/promises";
import { dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { AppError } from "../errors.js";

/**
 * The `Retry-After` of a write refused for space: freeing space is a
 * person's work, so a client asks again in half a minute, not at once.
 */
const FULL_RETRY_AFTER_S = 30;

/** 503 `storage_full` with its `Retry-After`: a write refused for space (found full, or below the floor). */
export function spaceRefusal(cause?: unknown): AppError {
  return new AppError("storage_full", { cause, headers: { "Retry-After": String(FULL_RETRY_AFTER_S) } });
}

/** How SQLite and the system name a write that found no space, by code or by their own message (a wrapper may keep only the message). */
const SPACE_WORDS = /SQLITE_FULL|ENOSPC|database or disk is full|no space left on device/i;

/**
 * Whether a failure is a write that found no space: SQLite's SQLITE_FULL
 * (the disk, or the database's page limit) or the system's ENOSPC, as
 * thrown or already mapped to `storage_full`. Such a write changed nothing
 * and may succeed once space returns, so what it carried is kept and tried
 * again, never failed for good.
 */
export function isSpaceFailure(err: unknown): boolean {
  for (let e: unknown = err, depth = 0; e && depth < 4; e = (e as { cause?: unknown }).cause, depth++) {
    if (e instanceof AppError && e.code === "storage_full") return true;
    const x = e as { code?: unknown; message?: unknown };
    if (SPACE_WORDS.test(`${String(x.code ?? "")} ${String(x.message ?? "")}`)) return true;
  }
  return false;
}

/** How long one look at the free space holds: every upload asks, the file system need not be asked each time. */
const LOOK_MS = 1_000;

/**
 * The free-space floor of the disk the database lives on
 * (`PKS_MIN_FREE_MB`). Below it the server stops taking uploads and
 * ingests (503 `storage_full` with `Retry-After`) and the reading worker
 * claims no file, so what is left stays for the commits already under way,
 * the WAL's checkpoint and the reads: a disk filled to the last byte fails
 * writes of every kind (SQLite needs room to commit even a delete). Only
 * local files are looked at; a memory or remote database has no floor here.
 */
export class SpaceFloor {
  readonly #folder: string | undefined;
  readonly #floorBytes: number;
  #lookedAt = -Infinity;
  #free = Infinity;

  constructor(dbUrl: string, floorMb: number) {
    this.#folder = localFolder(dbUrl);
    this.#floorBytes = floorMb * 1024 * 1024;
  }

  /** Bytes free on the database's disk (for the caller, not for root), Infinity where not looked at. */
  async freeBytes(): Promise<number> {
    if (!this.#folder) return Infinity;
    const now = performance.now();
    if (now - this.#lookedAt < LOOK_MS) return this.#free;
    try {
      const s = await statfs(this.#folder);
      this.#free = Number(s.bavail) * Number(s.bsize);
    } catch {
      this.#free = Infinity; // the folder cannot be looked at: the writes themselves will say
    }
    this.#lookedAt = now;
    return this.#free;
  }

  /** Whether the disk holds more than the floor. */
  async above(): Promise<boolean> {
    return (await this.freeBytes()) >= this.#floorBytes;
  }

  /** 503 `storage_full` with `Retry-After` when the disk is at or below the floor. */
  async assertRoom(): Promise<void> {
    if (await this.above()) return;
    throw spaceRefusal();
  }
}

function localFolder(url: string): string | undefined {
  if (!url.startsWith("file:") || url.startsWith("file::memory:")) return undefined;
  const path = url.startsWith("file://") ? fileURLToPath(url) : url.slice("file:".length).split("?")[0]!;
  return dirname(path);
}
