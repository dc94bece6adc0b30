import type { AnyAction } from "../src/core/action.js";
import { artifactUpdateAction } from "./artifact-update.js";
import { codeContextPackAction } from "./code-context-pack.js";
import { codeReferencesAction } from "./code-references.js";
import { documentIngestAction } from "./document-ingest.js";
import { ingestStatusAction } from "./ingest-status.js";
import { memoryQueryAction } from "./memory-query.js";
import { objectSubmitAction } from "./object-submit.js";
import { taskCancelAction } from "./task-cancel.js";
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
  taskCancelAction,
  ingestStatusAction,
];

/**
 * Tool profiles for `--tools` / `PKS_TOOLS` (besides `all`, every tool):
 * `code` is what a coding agent uses — the retrievals and whether reading
 * is done — without the typing, artifact, record and document tools whose
 * descriptions and schemas would fill its context unused. Names a catalog
 * does not hold are skipped (the call-graph tool joins when it is served).
 */
export const toolProfiles: Readonly<Record<string, readonly string[]>> = {
  code: ["memory_query", "code_context_pack", "code_references", "code_graph", "ingest_status"],
};
