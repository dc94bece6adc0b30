/**
 * Values that know the fuzz world: real ids or hostile strings for path
 * parameters, query-string values, random and tampered cursors, callers'
 * `Authorization` headers, and the field hints that give opaque body fields
 * (ingest files, chunk ids, roles, action inputs) plausible values.
 */
import { createHash } from "node:crypto";
import fc from "fast-check";
import { FILE_STATUSES } from "../../../src/graph/read-files.js";
import { FACTION_TYPES } from "../../../src/vocabulary.js";
import type { TestWorld } from "../test-app.js";
import type { KnownIds } from "./fuzz-world.js";
import type { Hints } from "./json-schema-arbitrary.js";

/** A value already written for a URL (percent-encoded as it should go on the wire), and what it is. */
export interface UrlValue {
  raw: string;
  hostile: boolean;
}

/** Percent-encodes a string as UTF-8, writing lone surrogates as their (invalid) three-byte forms. */
export function percentEncode(s: string): string {
  try {
    return encodeURIComponent(s);
  } catch {
    let out = "";
    for (const ch of s) {
      const code = ch.charCodeAt(0);
      if (ch.length === 1 && code >= 0xd800 && code <= 0xdfff) {
        out += [0xe0 | (code >> 12), 0x80 | ((code >> 6) & 0x3f), 0x80 | (code & 0x3f)].map((b) => `%${b.toString(16).toUpperCase()}`).join("");
      } else out += encodeURIComponent(ch);
    }
    return out;
  }
}

const sha256 = (bytes: Uint8Array | string) => `sha256:${createHash("sha256").update(bytes).digest("hex")}`;
const hex64 = fc.stringMatching(/^[0-9a-f]{64}$/);

/** Hostile strings for a path segment or query value, already encoded. */
export const hostileUrlValue: fc.Arbitrary<string> = fc.oneof(
  fc.string({ maxLength: 30, unit: "binary" }).map(percentEncode),
  fc.constantFrom("%", "%E0%A4%A", "%zz", "%C0%AF", "%FF", "%ED%A0%80", "%00", "a%00b", "..", "%2e%2e", "%2F", "%20", "__proto__", "constructor", "toString"),
  fc.constantFrom("1e400", "99999999999999999999999999999999", "-1", "0", "1.5", "0x10", "Infinity", "NaN", "+5", "%20%205", "%D9%A3", "9007199254740993"),
  fc.constantFrom(3000, 20_000).map((n) => "a".repeat(n)),
  hex64.map((h) => `sha256%3A${h}`),
);

/** A cursor: one handed out (by any read), tampered with, forged, or random. */
export function cursorArb(ids: KnownIds): fc.Arbitrary<string> {
  const real = fc.constantFrom(...ids.cursors);
  const flip = (s: string, at: number) => {
    const i = at % s.length;
    return s.slice(0, i) + (s[i] === "A" ? "B" : "A") + s.slice(i + 1);
  };
  return fc.oneof(
    real,
    fc.tuple(real, fc.nat()).map(([c, at]) => flip(c, at)),
    fc.tuple(real, real).map(([a, b]) => `${a.split(".")[0]}.${b.split(".")[1] ?? ""}`),
    fc.tuple(real, fc.jsonValue({ maxDepth: 2 })).map(([c, v]) => `${Buffer.from(JSON.stringify({ after: v })).toString("base64url")}.${c.split(".")[1] ?? ""}`),
    real.map((c) => `${c}.x`),
    real.map((c) => c.slice(0, -1)),
    real.map((c) => c.repeat(40)),
    fc.string({ maxLength: 60 }),
    fc.base64String({ maxLength: 80 }).map((s) => `${s}.${s}`),
    fc.constantFrom(".", "..", "a.", ".a", "e30.", "bnVsbA.AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"),
  );
}

/** Valid-ish query values by parameter name (unencoded). */
export function queryValueArb(key: string, ids: KnownIds): fc.Arbitrary<string> {
  const some = (xs: string[]) => fc.constantFrom(...(xs.length > 0 ? xs : ["x"]));
  const list = (xs: string[]) => fc.array(some(xs), { minLength: 1, maxLength: 4 }).map((a) => a.join(","));
  switch (key) {
    case "fileId":
      return fc.oneof(some(ids.fileIds), list(ids.fileIds));
    case "factionIds":
      return list(ids.factionIds);
    case "factionId":
      return some(ids.factionIds);
    case "entityId":
    case "categoryEntityId":
    case "schemaId":
      return some(ids.entityIds);
    case "parentCellId":
      return some(ids.cellIds);
    case "cursor":
      return cursorArb(ids);
    case "limit":
      return fc.integer({ min: -5, max: 300 }).map(String);
    case "status":
      return fc.constantFrom(...FILE_STATUSES, "retired");
    case "factionType":
      return fc.constantFrom(...FACTION_TYPES);
    case "path":
      return some(ids.paths).chain((p) => fc.nat({ max: p.length }).map((n) => p.slice(0, n)));
    case "entityType":
      return fc.constantFrom("person", "organization", "concept", "symbol", "file", "nope");
    default:
      return fc.oneof(some(ids.entityNames), fc.string({ maxLength: 20 }));
  }
}

/** A path parameter: mostly a real id of its kind, sometimes another kind's, another project's or a hostile string. */
export function pathParamArb(name: string, w: TestWorld, ids: KnownIds): fc.Arbitrary<UrlValue> {
  const byName: Record<string, string[]> = {
    projectId: [w.projectId],
    fileId: ids.fileIds,
    leaseId: ids.leaseIds,
    entityId: ids.entityIds,
    chunkId: ids.chunkIds,
  };
  const real = byName[name] ?? ids.fileIds;
  const others = [...ids.fileIds.slice(0, 2), ...ids.entityIds.slice(0, 2), ...ids.cellIds.slice(0, 2), w.otherProjectId, ...ids.chunkIds.slice(0, 1)];
  return fc.oneof(
    { weight: 12, arbitrary: fc.constantFrom(...(real.length > 0 ? real : ["x"])).map((raw) => ({ raw: percentEncode(raw), hostile: false })) },
    { weight: 1, arbitrary: fc.constantFrom(...others).map((raw) => ({ raw: percentEncode(raw), hostile: true })) },
    { weight: 2, arbitrary: hostileUrlValue.map((raw) => ({ raw, hostile: true })) },
  );
}

/** Who calls: mostly the owner (so most requests reach validation), sometimes anyone else or no one. */
export function authArb(w: TestWorld): fc.Arbitrary<{ who: string; header: string | undefined }> {
  const k = w.keys;
  return fc.oneof(
    { weight: 16, arbitrary: fc.constant({ who: "owner", header: `Bearer ${k.owner}` }) },
    {
      weight: 4,
      arbitrary: fc.constantFrom(
        { who: "editor", header: `Bearer ${k.editor}` },
        { who: "viewer", header: `Bearer ${k.viewer}` },
        { who: "outsider", header: `Bearer ${k.outsider}` },
        { who: "bound", header: `Bearer ${k.bound}` },
        { who: "submit", header: `Bearer ${k.submit}` },
        { who: "no key", header: undefined },
        { who: "bad key", header: `Bearer ${k.owner.slice(0, -2)}xx` },
        { who: "Basic", header: "Basic dXNlcjpwYXNz" },
        { who: "empty bearer", header: "Bearer " },
        { who: "session-looking", header: "Bearer pkss_AAAAAAAAAAAAAAAAAAAAAAAA" },
      ),
    },
  );
}

/** A small JSON text encoded as base64, as an ingest entry carries it. */
const content = fc.oneof(
  fc.constantFrom("# Title\n\nSome text about Ada Lovelace.\n", "x = 1\n", "a,b\n1,2\n", "").map((t) => Buffer.from(t).toString("base64")),
  fc.uint8Array({ maxLength: 200 }).map((b) => Buffer.from(b).toString("base64")),
  fc.string({ maxLength: 40 }),
);

/** Hints for body and action-input fields whose schema says little (`{}`), by field name. */
export function fieldHints(ids: KnownIds): Hints {
  const some = (xs: string[]) => fc.constantFrom(...(xs.length > 0 ? xs : ["x"]));
  const chunkId = fc.oneof({ weight: 3, arbitrary: some(ids.chunkIds) }, hex64.map((h) => `sha256:${h}`), fc.string({ maxLength: 20 }));
  const words = fc.oneof(fc.constantFrom("ledger", "invoice", "Ada Lovelace", "totalInvoices", "Report.run", "setup", "Acme"), fc.string({ maxLength: 30 }));
  return {
    files: fc.array(
      fc.record(
        {
          path: fc.oneof(some(ids.paths), fc.constantFrom("notes/a.md", "b.txt", "src/x.ts", "../up.md", "/abs.md", ".env", "dir/"), fc.string({ maxLength: 20 })),
          content,
          contentType: fc.constantFrom("text/markdown", "text/plain", "application/json", "nonsense"),
          includeSecret: fc.boolean(),
        },
        { requiredKeys: ["path", "content"] },
      ),
      { minLength: 1, maxLength: 3 },
    ),
    intent: fc.string({ maxLength: 40 }),
    chunkIds: fc.array(chunkId, { maxLength: 5 }),
    chunkId,
    fileSize: fc.oneof(fc.nat({ max: 10_000 }), fc.constant(0)),
    roles: fc.array(fc.constantFrom("owner", "reviewed", "core api", "x-1", "bad!role"), { maxLength: 4 }),
    query: words,
    task: words.filter((s) => s.length > 0),
    fileIds: fc.array(some(ids.fileIds), { maxLength: 3 }),
    entities: fc.array(some(ids.entityNames), { maxLength: 3 }),
    cursor: cursorArb(ids),
    schema: fc.constantFrom(
      { type: "object", properties: { name: { type: "string" } } },
      { type: "object", properties: { people: { type: "array", items: { type: "string" } }, count: { type: "integer" } }, required: ["people"] },
      { type: "object" },
    ),
    seedSymbols: fc.subarray(ids.symbols).map((s) => s.join(",")),
    seedFiles: fc.subarray(ids.paths).map((s) => s.join("\n")),
    budget: fc.integer({ min: 1, max: 20_000 }),
  };
}

/** The sha256 chunk id of some bytes. */
export const chunkIdOf = sha256;
