const ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

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
