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
  readOnly: boolean;
  detached: boolean;
  inputSchema: Record<string, unknown>;
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

  describe(): readonly ActionDescription[] {
    return this.#descriptions;
  }
}

function describe(a: AnyAction): ActionDescription {
  const schema = z.toJSONSchema(a.input, { io: "input", unrepresentable: "any" }) as Record<string, unknown>;
  delete schema.$schema;
  return {
    name: a.name,
    family: a.family,
    version: a.version,
    title: a.title,
    description: a.description,
    access: a.access,
    readOnly: a.readOnly,
    detached: a.detached ?? false,
    inputSchema: schema,
  };
}
