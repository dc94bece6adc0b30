import type { AnyAction } from "../src/core/action.js";
import { codeContextPackAction } from "./code-context-pack.js";
import { codeReferencesAction } from "./code-references.js";
import { memoryQueryAction } from "./memory-query.js";

/**
 * The product's action catalog: every entry is both an MCP tool and a REST
 * dispatch action. Actions join this list as their domains land.
 */
export const actions: readonly AnyAction[] = [memoryQueryAction, codeReferencesAction, codeContextPackAction];
