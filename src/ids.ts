import { randomBase62 } from "./base62.js";

/** Id prefixes of DECISIONS.md: opaque, prefixed, URL-safe. */
export type IdPrefix =
  | "prj" | "fil" | "fac" | "cel" | "ent" | "sym" | "prp" | "sch" | "rec" | "art" | "tsk" | "lse" | "key"
  | "usr" | "ses" | "chk";

/** A new random id: `prefix_` + 22 random base62 characters (131 bits). */
export function newId(prefix: IdPrefix): string {
  return `${prefix}_${randomBase62(22)}`;
}
