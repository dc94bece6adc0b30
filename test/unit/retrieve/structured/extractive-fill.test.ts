import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { AppError } from "../../../../src/errors.js";
import { compileSchema, synthesize } from "../../../../src/retrieve/memory/structured-answer.js";
import { clausesOf, proseOf } from "../../../../src/retrieve/structured/evidence-text.js";
import { stem } from "../../../../src/retrieve/structured/field-terms.js";

type Row = { cellId: string; text: string; filepath?: string; lineStart?: number };
const row = (cellId: string, text: string, filepath?: string, lineStart?: number): Row => ({ cellId, text, ...(filepath ? { filepath } : {}), ...(lineStart ? { lineStart } : {}) });
const object = (properties: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({ type: "object", properties, ...extra });

describe("evidence is prose", () => {
  it("a declaration cell offers only its doc sentence; other rows their text, cut into clauses", () => {
    const decl = row("d", "function verifyKey — export function verifyKey(key: string, keyHash: string): boolean — src/keys.ts — Checks a key against its stored hash.", "src/keys.ts");
    expect(proseOf(decl)).toBe("Checks a key against its stored hash.");
    expect(proseOf({ ...decl, filepath: undefined } as Row)).toBe("Checks a key against its stored hash.");
    expect(proseOf(row("c", "constant pretty — export const pretty = { space: 2 } — src/pretty.ts", "src/pretty.ts"))).toBe("");
    expect(proseOf(row("p", "Reading — a note — with dashes"))).toBe("Reading — a note — with dashes");
    const clauses = clausesOf(row("p", "The default log level is info; debug can be chosen. Logs are kept for 14 days, which is enough."), 0).map((c) => c.text);
    expect(clauses).toEqual(["The default log level is info", "debug can be chosen", "Logs are kept for 14 days", "which is enough"]);
  });

  it("one stem for the forms a field name and a sentence use", () => {
    const same: Array<[string, string]> = [["keys", "key"], ["hashed", "hash"], ["encryption", "encrypted"], ["owner", "owned"], ["expires", "expire"], ["released", "release"], ["escalation", "escalate"], ["maximum", "most"]];
    for (const [a, b] of same) expect(stem(a), `${a} ~ ${b}`).toBe(stem(b));
    expect(stem("region")).not.toBe(stem("reg"));
  });
});

describe("extractive fill: the right evidence", () => {
  it("keyHash comes from the prose (SHA-256), not from a function that names a keyHash parameter", () => {
    const rows = [
      row("fn", "function verifyKey — export function verifyKey(presented: string, keyHash: string): boolean — src/keys.ts — Checks a presented key against the stored hash of a key.", "src/keys.ts"),
      row("doc", "API keys are hashed with SHA-256 before storage, so a leaked database does not leak working keys.", "docs/keys.md"),
    ];
    const a = synthesize(object({ keyHash: { type: "string" } }), "How are API keys stored?", rows);
    expect(a).toEqual({ structured: { keyHash: "SHA-256" }, citations: { "/keyHash": ["doc"] } });
    // Without the prose, the function's header is no evidence: the field is left out.
    expect(synthesize(object({ keyHash: { type: "string" } }), "keyHash", rows.slice(0, 1)).structured).toEqual({});
  });

  it("maxAge from a CORS max-age statement, not from an unrelated `space: 2`; origin from the CORS option, not from secure headers", () => {
    const rows = [
      row("sp", "property PrettyOptions.space — space: number — src/pretty.ts — Indentation of nested values.", "src/pretty.ts"),
      row("pc", "constant defaultPretty — export const defaultPretty: PrettyOptions = { space: 2 } — src/pretty.ts", "src/pretty.ts"),
      row("sh", "The Cross-Origin-Resource-Policy header defaults to same-origin, and the Cross-Origin-Opener-Policy header is also set to same-origin.", "docs/secure-headers.md"),
      row("ma", "maxAge: how long a browser may cache a preflight result. The middleware sends a max-age of 600 seconds when this option is set.", "docs/cors.md"),
      row("or", "origin: the origins allowed to read responses. It defaults to *, which lets any origin read them.", "docs/cors.md"),
    ];
    const a = synthesize(object({ maxAge: { type: "number" }, origin: { type: "string" } }), "CORS max-age and origin", rows);
    expect(a.structured).toEqual({ maxAge: 600, origin: "*" });
    expect(a.citations).toEqual({ "/maxAge": ["ma"], "/origin": ["or"] });
  });

  it("a declaration header is evidence only for a literal it writes for exactly the field's name, and prose outranks it", () => {
    const rows = [
      row("rid", "function requestId — export const requestId = ({ limitLength = 255, headerName = 'X-Request-Id' }: RequestIdOptions = {}) — src/request-id.ts", "src/request-id.ts"),
      row("pc", "constant defaultPretty — export const defaultPretty: PrettyOptions = { space: 2 } — src/pretty.ts", "src/pretty.ts"),
      row("ma", "constant DEFAULT_MAX_AGE — export const DEFAULT_MAX_AGE = 600 — src/cors.ts", "src/cors.ts"),
      row("ty", "property CORSOptions.origin — origin?: string | string[] — src/cors.ts", "src/cors.ts"),
      row("md", "type Mode — type Mode = { mode: 'strict' | 'lax' } — src/mode.ts", "src/mode.ts"),
    ];
    const schema = object({ headerName: { type: "string" }, limitLength: { type: "integer" }, maxAge: { type: "number" }, origin: { type: "string" }, space: { type: "string" }, mode: { type: "string" } });
    const a = synthesize(schema, "request id header, max age, origin", rows);
    expect(a.structured).toEqual({ headerName: "X-Request-Id", limitLength: 255, maxAge: 600 });
    expect(a.citations).toEqual({ "/headerName": ["rid"], "/limitLength": ["rid"], "/maxAge": ["ma"] });
    // Prose that names the field whole outranks the code's literal.
    const withProse = synthesize(object({ maxAge: { type: "number" } }), "max age", [...rows, row("doc", "The middleware sends a max-age of 86400 seconds.")]);
    expect(withProse.structured).toEqual({ maxAge: 86400 });
  });

  it("strings are the short span that answers: after a copula, an apposition, a preposition's object, a modifier", () => {
    const rows = [
      row("a", "The payments service is owned by Dana Reyes, who also approves changes to its rota."),
      row("b", "It runs in the eu-west-1 region behind a load balancer."),
      row("c", "The load balancer polls the health check path /healthz every ten seconds."),
      row("d", "The service deploys from the main branch every night at 02:00 UTC."),
      row("e", "The escalation contact is the platform team."),
    ];
    const schema = object({ owner: { type: "string" }, region: { type: "string" }, healthCheckPath: { type: "string" }, branch: { type: "string" }, escalationContact: { type: "string" } });
    expect(synthesize(schema, "service facts", rows).structured).toEqual({ owner: "Dana Reyes", region: "eu-west-1", healthCheckPath: "/healthz", branch: "main", escalationContact: "platform team" });
  });

  it("typed values: units converted to the field's, dates and durations normalised, enum values, booleans by polarity, lists", () => {
    const rows = [
      row("t", "Preflight results are cached for ten minutes."),
      row("r", "Version 2.4.0 was released on 12 March 2025."),
      row("l", "The default log level is warn; debug and error can be chosen."),
      row("c", "By default the middleware does not send credentials."),
      row("j", "Log lines are written as JSON."),
      row("n", "The service supports Node 18, 20 and 22."),
      row("m", "Allowed methods are GET, HEAD, POST and DELETE."),
    ];
    const schema = object({
      cacheSeconds: { type: "integer", description: "how long preflight results are cached, in seconds" },
      cacheFor: { type: "string", format: "duration", description: "how long preflight results are cached" },
      releaseDate: { type: "string", format: "date" },
      defaultLevel: { type: "string", enum: ["debug", "info", "warn", "error"] },
      credentials: { type: "boolean" },
      jsonLines: { type: "boolean", description: "whether log lines are written as JSON" },
      nodeVersions: { type: "array", items: { type: "integer" } },
      allowedMethods: { type: "array", items: { type: "string" } },
    });
    expect(synthesize(schema, "settings", rows).structured).toEqual({
      cacheSeconds: 600,
      cacheFor: "PT10M",
      releaseDate: "2025-03-12",
      defaultLevel: "warn",
      credentials: false,
      jsonLines: true,
      nodeVersions: [18, 20, 22],
      allowedMethods: ["GET", "HEAD", "POST", "DELETE"],
    });
  });

  it("a schema that is one value answers what the question asks", () => {
    const rows = [row("a", "The database is copied every six hours."), row("b", "Backups are kept for 35 days and then deleted.")];
    expect(synthesize({ type: "integer" }, "How many days are backups kept?", rows)).toEqual({ structured: 35, citations: { "/": ["b"] } });
    expect(synthesize({ type: "integer" }, "How many staff are on call?", rows)).toEqual({ structured: null, citations: {}, missing: [""] });
  });

  it("a heading that names the field speaks for the row under it, and both are cited", () => {
    const rows = [row("h", "Contacts", "docs/billing.md", 7), row("q", "Questions go to billing@example.com.", "docs/billing.md", 9), row("o", "Other mail goes to info@example.com.", "docs/other.md", 3)];
    const a = synthesize(object({ contact: { type: "string", format: "email" } }), "billing contact", rows);
    expect(a).toEqual({ structured: { contact: "billing@example.com" }, citations: { "/contact": ["h", "q"] } });
  });
});

describe("extractive fill: nothing invented", () => {
  it("fields no clause names are left out, even when the query's words and a value of the right type are there", () => {
    const rows = [
      row("a", "List endpoints return 50 items per page, and a request may name up to 100 files at once."),
      row("b", "The database is copied every six hours."),
      row("c", "It runs in the eu-west-1 region."),
      row("d", "Pages escalate to payments-oncall@example.com."),
    ];
    const schema = object({
      pageSize: { type: "integer" },
      maxPageSize: { type: "integer" },
      database: { type: "string", description: "the database engine" },
      availabilityZones: { type: "integer" },
      securityContact: { type: "string", format: "email" },
    });
    const a = synthesize(schema, "page size, database, availability zones and security contact", rows);
    expect(a.structured).toEqual({ pageSize: 50 });
    expect(Object.keys(a.citations)).toEqual(["/pageSize"]);
  });

  it("config claims: a key's value, typed; a version range keeps its operator", () => {
    const rows = [row("p", "server.port: 8080"), row("t", "server.tls: false"), row("h", "server.host: 0.0.0.0"), row("n", "engines.node: >=20"), row("v", "version: 3.1.4")];
    const schema = object({ port: { type: "integer" }, tls: { type: "boolean" }, host: { type: "string" }, node: { type: "string" }, version: { type: "string" } });
    expect(synthesize(schema, "server settings", rows).structured).toEqual({ port: 8080, tls: false, host: "0.0.0.0", node: ">=20", version: "3.1.4" });
  });

  it("a predicate after the copula is no value: \"the owner is responsible for billing\" names no owner", () => {
    const schema = object({ owner: { type: "string" } });
    expect(synthesize(schema, "owner", [row("a", "The owner is responsible for billing.")]).structured).toEqual({});
    expect(synthesize(schema, "owner", [row("a", "The owner is responsible for billing."), row("b", "The owner is Sam Lee.")]).structured).toEqual({ owner: "Sam Lee" });
  });

  it("a required field with no evidence: null where allowed, else structured is null and missing names it", () => {
    const rows = [row("a", "The owner is Dana Reyes.")];
    expect(synthesize(object({ owner: { type: "string" }, budget: { type: ["number", "null"] } }, { required: ["owner", "budget"] }), "owner budget", rows).structured).toEqual({
      owner: "Dana Reyes",
      budget: null,
    });
    expect(synthesize(object({ owner: { type: "string" }, budget: { type: "number" } }, { required: ["owner", "budget"] }), "owner budget", rows)).toEqual({
      structured: null,
      citations: {},
      missing: ["/budget"],
    });
  });

  it("nested objects are filled field by field; $ref and nullable anyOf say what a field is", () => {
    const schema = {
      type: "object",
      definitions: { days: { type: "integer", description: "days kept" } },
      properties: {
        backups: { type: "object", properties: { retention: { $ref: "#/definitions/days" }, encryption: { anyOf: [{ type: "string" }, { type: "null" }] }, owner: { type: "string" } } },
      },
    };
    const rows = [row("k", "Backups are kept for 35 days and then deleted."), row("e", "Each backup is encrypted with AES-256-GCM before it leaves the host.")];
    const a = synthesize(schema, "backups", rows);
    expect(a.structured).toEqual({ backups: { retention: 35, encryption: "AES-256-GCM" } });
    expect(a.citations).toEqual({ "/backups/retention": ["k"], "/backups/encryption": ["e"] });
  });

  it("any schema over any rows: an answer that conforms, citing only given rows, or a 400", () => {
    const leaf = fc.oneof(
      fc.constant({ type: "string" }),
      fc.constant({ type: "number" }),
      fc.constant({ type: "integer", minimum: 0 }),
      fc.constant({ type: "boolean" }),
      fc.constant({ type: "string", format: "date" }),
      fc.constant({ type: "string", format: "duration" }),
      fc.constant({ type: "string", enum: ["info", "warn", "GET"] }),
      fc.constant({ type: "array", items: { type: "integer" }, maxItems: 2 }),
      fc.constant({ type: "string", maxLength: 4 }),
    );
    const names = fc.constantFrom("owner", "maxAge", "keyHash", "level", "days", "releaseDate", "__proto__", "constructor", "a b", "");
    const schema = fc.dictionary(names, leaf, { maxKeys: 5 }).chain((properties) =>
      fc.subarray(Object.keys(properties)).map((required) => ({ type: "object", properties, required })),
    );
    const words = fc.constantFrom("The", "owner", "is", "Dana", "max-age", "of", "600", "seconds", "info", "level", "12 March 2025", "ten", "days", ",", ".", "hashed", "with", "SHA-256", "GET", "not", ":", "2025-02-30", "—");
    const text = fc.array(words, { minLength: 1, maxLength: 14 }).map((w) => w.join(" "));
    const rows = fc.array(text, { minLength: 0, maxLength: 5 }).map((ts) => ts.map((t, i) => row(`c${i}`, t)));
    fc.assert(
      fc.property(schema, rows, fc.string({ maxLength: 30 }), (s, rs, q) => {
        let a;
        try {
          a = synthesize(s, q, rs);
        } catch (err) {
          expect(err).toBeInstanceOf(AppError);
          return;
        }
        if (a.structured === null) expect(a.missing!.length).toBeGreaterThan(0);
        else expect(compileSchema(s)(a.structured)).toBe(true);
        const ids = new Set(rs.map((r) => r.cellId));
        for (const cited of Object.values(a.citations)) for (const id of cited) expect(ids.has(id)).toBe(true);
      }),
      { numRuns: 400 },
    );
  });
});

describe("extractive fill: the named thing, the person, the role holder (rows the filler was not tuned on)", () => {
  const rows = [
    row("r1", "Quarry Labs adopts Postgres as the primary database."),
    row("r2", "Quarry Labs' cache layer is Redis, and its TTL is short."),
    row("r3", "Keiko Tanaka owns the mobile roadmap."),
    row("r4", "The design team reviews the mobile roadmap every month."),
    row("r5", "Ravi Patel is the release manager for Quarry Labs."),
    row("r6", "Lena Vogel approves every refund above 500 euros."),
  ];

  it("reads the thing a row adopts as the field, not a modifier or another row's value", () => {
    const a = synthesize(object({ database: { type: "string" } }), "Which database does Quarry Labs use?", rows);
    expect(a.structured).toEqual({ database: "Postgres" });
    expect(a.citations).toEqual({ "/database": ["r1"] });
  });

  it("reads the person who does what the field's agent noun names, and the holder of a role", () => {
    expect(synthesize(object({ owner: { type: "string" } }), "Who owns the mobile roadmap?", rows).structured).toEqual({ owner: "Keiko Tanaka" });
    expect(synthesize(object({ releaseManager: { type: "string" } }), "Who is the release manager for Quarry Labs?", rows).structured).toEqual({ releaseManager: "Ravi Patel" });
    expect(synthesize(object({ approver: { type: "string" } }), "Who approves refunds?", rows).structured).toEqual({ approver: "Lena Vogel" });
  });

  it("leaves a field out when no row states it, and never reads a plain noun's subject as its holder", () => {
    expect(synthesize(object({ owner: { type: "string" }, budget: { type: "string" } }), "Who owns the web roadmap and what is its budget?", [rows[3]!]).structured).toEqual({});
    const keys = [row("k", "API keys are hashed with SHA-256 before storage.")];
    expect(synthesize(object({ keyHash: { type: "string" } }), "How are API keys stored?", keys).structured).toEqual({ keyHash: "SHA-256" });
  });
});
