import { randomBytes } from "node:crypto";

const ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
/** Random bytes drawn from the system at a time, for {@link randomBase62}. */
const POOL_BYTES = 4096;
let pool = Buffer.alloc(0);
let poolAt = 0;

/**
 * `length` characters drawn uniformly from the base62 alphabet, from the
 * system's cryptographic source (5.95 bits each: 22 characters are 131
 * bits). Each character takes one random byte, bytes 248–255 drawn again so
 * that none is more likely; the bytes come from a pool refilled 4 KiB at a
 * time. Encoding 16 fresh bytes through a BigInt cost about 5 µs an id,
 * and a cold ingest makes one for every faction, cell and entity.
 */
export function randomBase62(length: number): string {
  let out = "";
  while (out.length < length) {
    if (poolAt >= pool.length) {
      pool = randomBytes(POOL_BYTES);
      poolAt = 0;
    }
    const byte = pool[poolAt++]!;
    if (byte < 248) out += ALPHABET[byte % 62];
  }
  return out;
}

/**
 * Encodes bytes (big-endian) or a non-negative integer in base62, left-padded
 * with `0` to `width` characters.
 */
export function toBase62(value: Uint8Array | number | bigint, width: number): string {
  let n = typeof value === "object" ? bytesToBigInt(value) : BigInt(value);
  let out = "";
  while (n > 0n) {
    out = ALPHABET[Number(n % 62n)] + out;
    n /= 62n;
  }
  return out.padStart(width, "0");
}

/** True when every character of `s` is in the base62 alphabet. */
export function isBase62(s: string): boolean {
  return /^[0-9A-Za-z]*$/.test(s);
}

function bytesToBigInt(bytes: Uint8Array): bigint {
  let n = 0n;
  for (const b of bytes) n = (n << 8n) | BigInt(b);
  return n;
}
