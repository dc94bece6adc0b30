import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import { crc32 } from "node:zlib";
import { isBase62, toBase62 } from "../base62.js";

/**
 * API key format: `pks_` + 43 base62 characters of 32 random bytes + a
 * 6-character base62 CRC32 checksum of those 43 characters. The checksum
 * lets a malformed or mistyped key be refused without a database read.
 */
const PREFIX = "pks_";
const BODY = 43;
const CHECK = 6;
export const API_KEY_LENGTH = PREFIX.length + BODY + CHECK;
/** Characters of the body kept in clear as the key's visible prefix. */
const VISIBLE = 8;

export interface MintedKey {
  /** Shown exactly once, never stored. */
  plaintext: string;
  /** `pks_` + the first 8 body characters: stored, listed, shown. */
  prefix: string;
  /** SHA-256 of the plaintext, hex. */
  hash: string;
}

/** Mints a new key. */
export function mintApiKey(): MintedKey {
  const body = toBase62(randomBytes(32), BODY);
  const plaintext = PREFIX + body + checksum(body);
  return { plaintext, prefix: visiblePrefix(plaintext), hash: hashSecret(plaintext) };
}

/** Whether a string has the key shape and a valid checksum. */
export function isWellFormedApiKey(candidate: string): boolean {
  if (candidate.length !== API_KEY_LENGTH || !candidate.startsWith(PREFIX)) return false;
  const body = candidate.slice(PREFIX.length, PREFIX.length + BODY);
  const check = candidate.slice(PREFIX.length + BODY);
  if (!isBase62(body) || !isBase62(check)) return false;
  return safeEqual(check, checksum(body));
}

/** The visible prefix stored beside the hash, e.g. `pks_Ab12Cd34`. */
export function visiblePrefix(plaintext: string): string {
  return plaintext.slice(0, PREFIX.length + VISIBLE);
}

/** SHA-256 hex of a secret (keys and session tokens are stored only this way). */
export function hashSecret(secret: string): string {
  return createHash("sha256").update(secret, "utf8").digest("hex");
}

/** Constant-time string comparison (equal lengths compared in full). */
export function safeEqual(a: string, b: string): boolean {
  const x = Buffer.from(a, "utf8");
  const y = Buffer.from(b, "utf8");
  if (x.length !== y.length) return false;
  return timingSafeEqual(x, y);
}

function checksum(body: string): string {
  return toBase62(crc32(body), CHECK);
}
