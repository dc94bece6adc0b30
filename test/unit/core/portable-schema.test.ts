/**
 * Tool schemas are spelled so every client reads them alike (the MCP
 * Inspector's `--strict` portability rules): no `type` lists, and no schema
 * that only annotates (any value is said with an `anyOf` of every JSON type,
 * or `true` as `additionalProperties`).
 */
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { Catalog, jsonSchemaOf } from "../../../src/core/catalog.js";
import { actions } from "../../../tools/index.js";

const ANNOTATIONS = new Set(["description", "title", "default", "examples", "deprecated", "readOnly", "writeOnly"]);

/** Every place in a schema that breaks the rules, as a JSON path. */
function problems(node: unknown, path: string, out: string[]): string[] {
  if (typeof node !== "object" || node === null) return out;
  if (Array.isArray(node)) {
    node.forEach((n, i) => problems(n, `${path}[${i}]`, out));
    return out;
  }
  const schema = node as Record<string, unknown>;
  if (Array.isArray(schema.type)) out.push(`${path}: type list ${JSON.stringify(schema.type)}`);
  if (Object.keys(schema).every((k) => ANNOTATIONS.has(k))) out.push(`${path}: accepts anything without saying so`);
  for (const [key, value] of Object.entries(schema)) {
    if (key === "properties" && value && typeof value === "object") {
      for (const [name, sub] of Object.entries(value)) problems(sub, `${path}.properties.${name}`, out);
    } else if (["anyOf", "oneOf", "allOf", "prefixItems"].includes(key)) problems(value, `${path}.${key}`, out);
    else if (["items", "not", "additionalProperties"].includes(key) && typeof value === "object") problems(value, `${path}.${key}`, out);
  }
  return out;
}

describe("portable tool schemas", () => {
  it("no product tool's input or output schema has a type list or a schema that only annotates", () => {
    const found = new Catalog(actions)
      .describe()
      .flatMap((a) => [...problems(a.inputSchema, `${a.name}.inputSchema`, []), ...problems(a.outputSchema, `${a.name}.outputSchema`, [])]);
    expect(found).toEqual([]);
  });

  it("keeps what a schema accepts: nullable, any-value and free-form fields", () => {
    const json = jsonSchemaOf(
      z.object({ id: z.string().min(2).nullable(), n: z.number().max(5).or(z.string()), any: z.unknown(), free: z.record(z.string(), z.unknown()) }),
      "output",
    );
    const props = json.properties as Record<string, Record<string, unknown>>;
    expect(props.id).toEqual({ anyOf: [{ type: "string", minLength: 2 }, { type: "null" }] });
    expect(props.any!.anyOf).toHaveLength(6);
    expect(props.free).toMatchObject({ type: "object", additionalProperties: true });
    expect(problems(json, "schema", [])).toEqual([]);
  });
});
