import { z } from "zod";
import type { AnyAction } from "./action.js";

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
}

/** A zod schema as JSON Schema (what MCP and REST clients read). */
export function jsonSchemaOf(schema: z.ZodType, io: "input" | "output"): Record<string, unknown> {
  const json = z.toJSONSchema(schema, { io, unrepresentable: "any" }) as Record<string, unknown>;
  delete json.$schema;
  return json;
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
