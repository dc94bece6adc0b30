import { randomBase62, toBase62 } from "./base62.js";

/** Id prefixes of DECISIONS.md: opaque, prefixed, URL-safe. */
export type IdPrefix =
  | "prj" | "fil" | "fac" | "cel" | "ent" | "sym" | "prp" | "sch" | "rec" | "art" | "tsk" | "lse" | "key"
  | "usr" | "ses" | "chk";

/** Characters of an id after its prefix, random or time-led alike. */
const ID_CHARS = 22;
/** Base62 characters of a millisecond time: 62^8 ms is about 6,900 years. */
const TIME_CHARS = 8;

/** A new random id: `prefix_` + 22 random base62 characters (131 bits). */
export function newId(prefix: IdPrefix): string {
  return `${prefix}_${randomBase62(ID_CHARS)}`;
}

/**
 * A new id led by the time: `prefix_` + the millisecond clock in 8 base62
 * characters + 14 random ones (83 bits), as long as {@link newId}'s and as
 * opaque to callers. For the rows a reading writes in bulk (factions,
 * cells, entities): each id column has a unique index, and ids drawn at
 * random put every insert at a random leaf of it, so once an index
 * outgrows the writer's page cache each row reads a leaf back from the file
 * and dirties a page of its own, which the commit writes to the WAL and
 * the checkpoint copies back. Ids that follow the clock append to the
 * index's last leaves instead. The alphabet is in byte order, so the text
 * sorts as the time does. Not for ids a caller must not guess (sessions,
 * keys): the time lead makes them no secret.
 */
export function newOrderedId(prefix: "fac" | "cel" | "ent", now = Date.now()): string {
  if (now !== lastMs) {
    lastMs = now;
    lastLead = toBase62(now, TIME_CHARS);
  }
  return `${prefix}_${lastLead}${randomBase62(ID_CHARS - TIME_CHARS)}`;
}

/** The last millisecond encoded, reused: a reading draws thousands of ids in one. */
let lastMs = -1;
let lastLead = "";
