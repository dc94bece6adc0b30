import { randomBytes } from "node:crypto";
import { toBase62 } from "./base62.js";

/** Id prefixes of DECISIONS.md: opaque, prefixed, URL-safe. */
export type IdPrefix =
  | "prj" | "fil" | "fac" | "cel" | "ent" | "sym" | "prp" | "sch" | "rec" | "art" | "tsk" | "lse" | "key"
  | "usr" | "ses" | "chk";

/** A new random id: `prefix_` + 22 base62 characters (128 random bits). */
export function newId(prefix: IdPrefix): string {
  return `${prefix}_${toBase62(randomBytes(16), 22)}`;
}
