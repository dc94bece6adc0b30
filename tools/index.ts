import type { AnyAction } from "../src/core/action.js";
import { artifactUpdateAction } from "./artifact-update.js";
import { codeContextPackAction } from "./code-context-pack.js";
import { codeReferencesAction } from "./code-references.js";
import { documentIngestAction } from "./document-ingest.js";
import { ingestStatusAction } from "./ingest-status.js";
import { memoryQueryAction } from "./memory-query.js";
import { objectSubmitAction } from "./object-submit.js";
import { taskStatusAction } from "./task-status.js";
import { typeProposalSettleAction, typeProposalsAction, typeRefillAction, typeSchemaAction, typeSchemaEditAction } from "./types.js";

/**
 * The product's action catalog: every entry is both an MCP tool and a REST
 * dispatch action. Actions join this list as their domains land.
 */
export const actions: readonly AnyAction[] = [
  memoryQueryAction,
  codeReferencesAction,
  codeContextPackAction,
  documentIngestAction,
  typeProposalsAction,
  typeProposalSettleAction,
  typeSchemaAction,
  typeSchemaEditAction,
  typeRefillAction,
  artifactUpdateAction,
  objectSubmitAction,
  taskStatusAction,
  ingestStatusAction,
];
