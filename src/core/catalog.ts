import { z } from "zod";
import type { AnyAction } from "./action.js";
import { lookupTable } from "../lookup.js";

/** Public description of an action, as listed by `GET /v1/api/actions` and MCP `tools/list`. */
export interface ActionDescription {
  name: string;
  family: string;
  version: string;
  title: string;
  description: string;
  access: string;
  tiers: string[];
  readOnly: boolean;
  detached: boolean;
  inputSchema: Record<string, unknown>;
  outputSchema: Record<string, unknown>;
}

/** The set of actions a server offers, looked up by name. */
export class Catalog {
  readonly #byName: ReadonlyMap<string, AnyAction>;
  readonly #descriptions: readonly ActionDescription[];

  constructor(actions: readonly AnyAction[]) {
    const byName = new Map<string, AnyAction>();
    for (const a of actions) {
      if (byName.has(a.name)) throw new Error(`duplicate action ${a.name}`);
      byName.set(a.name, a);
    }
    this.#byName = byName;
    this.#descriptions = actions.map(describe);
  }

  get(name: string): AnyAction | undefined {
    return this.#byName.get(name);
  }

  list(): readonly AnyAction[] {
    return [...this.#byName.values()];
  }

  describe(): readonly ActionDescription[] {
    return this.#descriptions;
  }

  /**
   * The actions a selection names, as a catalog of their own (what MCP
   * offers, so a coding agent's context holds only the tools it uses). Each
   * item is a profile (`all`, or one of `profiles`: its names that this
   * catalog holds) or an action's name; anything else is an Error naming
   * the choices, so a typo stops the server instead of hiding a tool.
   */
  select(selection: readonly string[], profiles: Readonly<Record<string, readonly string[]>>): Catalog {
    if (selection.includes("all")) return this;
    const names = new Set<string>();
    for (const item of selection) {
      const profile = Object.hasOwn(profiles, item) ? profiles[item] : undefined;
      if (profile) for (const name of profile.filter((n) => this.#byName.has(n))) names.add(name);
      else if (this.#byName.has(item)) names.add(item);
      else {
        const choices = `profiles: ${["all", ...Object.keys(profiles)].join(", ")}; tools: ${[...this.#byName.keys()].join(", ")}`;
        throw new Error(`--tools (PKS_TOOLS): unknown tool or profile "${item}" (${choices})`);
      }
    }
    return new Catalog(this.list().filter((a) => names.has(a.name)));
  }
}

/**
 * A zod schema as JSON Schema (what MCP and REST clients read), in a form
 * that means the same under draft-07 and 2020-12: MCP leaves the dialect to
 * the client (the SDK's own client validates with a draft-07 Ajv), and zod
 * writes 2020-12. The one construct that differs is a tuple (see
 * `portableTuples`).
 */
export function jsonSchemaOf(schema: z.ZodType, io: "input" | "output"): Record<string, unknown> {
  const json = z.toJSONSchema(schema, { io, unrepresentable: "any" }) as Record<string, unknown>;
  delete json.$schema;
  return portableSchema(portableTuples(json)) as Record<string, unknown>;
}

/** Keywords that apply to one JSON type only: they go to that type's branch when a type list is split. */
const KEYWORD_TYPE = lookupTable<string>({
  minLength: "string",
  maxLength: "string",
  pattern: "string",
  format: "string",
  minimum: "number",
  maximum: "number",
  exclusiveMinimum: "number",
  exclusiveMaximum: "number",
  multipleOf: "number",
  items: "array",
  prefixItems: "array",
  minItems: "array",
  maxItems: "array",
  uniqueItems: "array",
  properties: "object",
  required: "object",
  additionalProperties: "object",
  propertyNames: "object",
  minProperties: "object",
  maxProperties: "object",
});
/** Keywords that only annotate: a schema with nothing else accepts any value. */
const ANNOTATIONS = new Set(["description", "title", "default", "examples", "deprecated", "readOnly", "writeOnly"]);
const ANY_JSON = ["object", "array", "string", "number", "boolean", "null"].map((type) => ({ type }));

/**
 * Spells a schema the way every client reads it alike (tool schemas are
 * mapped onto single-`type` dialects by some model providers): a `type` list
 * becomes `anyOf` branches of one type each, carrying the keywords of that
 * type; a schema with no validation keyword (any value) says so with an
 * `anyOf` of every JSON type, and as `additionalProperties` it is `true`.
 * The accepted values are the same.
 */
function portableSchema(node: unknown): unknown {
  if (typeof node !== "object" || node === null || Array.isArray(node)) return node;
  const schema: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) schema[key] = childSchemas(key, value);
  if (Object.keys(schema).every((k) => ANNOTATIONS.has(k))) return { ...schema, anyOf: ANY_JSON };
  const types = schema.type;
  if (!Array.isArray(types)) return schema;
  const outer: Record<string, unknown> = {};
  const branches = new Map<string, Record<string, unknown>>(types.map((t: string) => [t, { type: t }]));
  for (const [key, value] of Object.entries(schema)) {
    if (key === "type") continue;
    const owner = KEYWORD_TYPE[key];
    const branch = owner === undefined ? undefined : (branches.get(owner) ?? (owner === "number" ? branches.get("integer") : undefined));
    if (branch) branch[key] = value;
    else outer[key] = value;
  }
  return { ...outer, anyOf: [...branches.values()] };
}

/** The subschemas under one keyword, each made portable; anything else as it is. */
function childSchemas(key: string, value: unknown): unknown {
  if (key === "properties" || key === "$defs" || key === "definitions") {
    if (typeof value !== "object" || value === null) return value;
    return Object.fromEntries(Object.entries(value).map(([name, sub]) => [name, portableSchema(sub)]));
  }
  if (key === "anyOf" || key === "oneOf" || key === "allOf" || key === "prefixItems") return Array.isArray(value) ? value.map(portableSchema) : value;
  if (key === "additionalProperties") {
    if (typeof value !== "object" || value === null) return value;
    return Object.keys(value).every((k) => ANNOTATIONS.has(k)) ? true : portableSchema(value);
  }
  if (key === "items" || key === "not" || key === "propertyNames") return portableSchema(value);
  return value;
}

/**
 * zod writes a tuple as `prefixItems` with `items: false`. A draft-07
 * validator ignores `prefixItems` and reads `items: false` as "no items at
 * all", refusing every tuple. A fixed-length tuple needs no `items: false`
 * (its `maxItems` already says it), and when all its places share one
 * schema, `items` set to that schema checks them under both dialects.
 */
function portableTuples(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(portableTuples);
  if (node === null || typeof node !== "object") return node;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) out[key] = portableTuples(value);
  const places = out.prefixItems;
  if (Array.isArray(places) && out.items === false && out.maxItems === places.length) {
    delete out.items;
    const first = JSON.stringify(places[0]);
    if (places.length > 0 && places.every((p) => JSON.stringify(p) === first)) out.items = places[0];
  }
  return out;
}

function describe(a: AnyAction): ActionDescription {
  return {
    name: a.name,
    family: a.family,
    version: a.version,
    title: a.title,
    description: a.description,
    access: a.access,
    tiers: [...(a.tiers ?? ["standard"])],
    readOnly: a.readOnly,
    detached: a.detached ?? false,
    inputSchema: jsonSchemaOf(a.input, "input"),
    outputSchema: jsonSchemaOf(a.output, "output"),
  };
}
