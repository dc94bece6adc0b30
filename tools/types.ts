import { z } from "zod";
import { defineAction } from "../src/core/action.js";
import { cursorParam, DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from "../src/core/paging.js";
import { confirmProposal, listProposals, rejectProposal } from "../src/categories/proposals.js";
import { categorySchemaShape, proposalShape, schemaFieldShape } from "../src/categories/resources.js";
import { TYPE_REFILL } from "../src/categories/refill-task.js";
import { enqueueAs, queuedTaskSchema } from "../src/tasks/detached.js";
import { approveSchemaProposal, editSchema, readCategorySchema, rejectSchemaProposal } from "../src/categories/schema-edits.js";

/**
 * Typed knowledge for agents: the same proposals and schemas people settle
 * over the session endpoints, so an agent can confirm the type a person
 * asked for. Reads need viewer access, changes editor access.
 */

const decision = <const T extends readonly [string, ...string[]]>(words: T) => z.enum(words);

export const typeProposalsAction = defineAction({
  name: "type_proposals",
  family: "type",
  version: "1.0.0",
  title: "Proposed types",
  description:
    "Lists the types reading proposed for this project, newest first: shapes that repeat across documents (incident " +
    "reports, meeting notes, table rows …), each with a name, a description, fields ({name, type, description, required}), " +
    "evidence (faction ids of the sections the shape was read from) and status (0 pending, 1 confirmed, 2 rejected). Use it " +
    "when someone asks to organise recurring documents into a type; settle one with type_proposal_settle. Pages with " +
    '`cursor`/`limit` (default 50, at most 200). Good call: {}, then {"cursor": "<nextCursor>"} while nextCursor is not empty.',
  input: z.object({
    cursor: cursorParam.describe("nextCursor of a previous page."),
    limit: z
      .number()
      .int()
      .min(1)
      .max(MAX_PAGE_SIZE)
      .default(DEFAULT_PAGE_SIZE)
      .describe(`Proposals per page (default ${DEFAULT_PAGE_SIZE}, at most ${MAX_PAGE_SIZE}).`),
  }),
  output: z.object({ proposals: z.array(proposalShape), nextCursor: z.string() }),
  access: "viewer",
  readOnly: true,
  run: async (input, ctx) => {
    const page = await listProposals(ctx.db, ctx.scope, input, ctx.tools);
    return { proposals: page.rows, nextCursor: page.nextCursor };
  },
});

export const typeProposalSettleAction = defineAction({
  name: "type_proposal_settle",
  family: "type",
  version: "1.0.0",
  title: "Confirm or reject a proposed type",
  description:
    "Settles a proposal from type_proposals, for a person who asked for it (editor access). confirm: the proposal's fields " +
    "become the schema of a type entity (an existing type of the same name receives them), its sections are filed under the " +
    "type and each member gets a filled cell; answers the type's entityId, the same when confirmed again. reject: the shape " +
    "is never proposed again. The opposite of a settled decision is refused. " +
    'Good call: {"proposalId": "prp_…", "decision": "confirm"}.',
  input: z.object({ proposalId: z.string().min(1), decision: decision(["confirm", "reject"]) }),
  output: z.object({ entityId: z.string().optional() }),
  access: "editor",
  readOnly: false,
  run: async (input, ctx) =>
    input.decision === "confirm"
      ? confirmProposal(ctx.db, ctx.scope, input.proposalId, ctx.tools)
      : rejectProposal(ctx.db, ctx.scope, input.proposalId, ctx.tools),
});

export const typeSchemaAction = defineAction({
  name: "type_schema",
  family: "type",
  version: "1.0.0",
  title: "A type's schema",
  description:
    "Reads the schema of a type entity: its fields ({name, type, description, required}) and version, the version a " +
    "type_schema_edit starts from. The type's entityId comes from type_proposal_settle, or from memory_query's entities " +
    '(kind "category"). Good call: {"entityId": "ent_…"}.',
  input: z.object({ entityId: z.string().min(1) }),
  output: z.object({ categorySchema: categorySchemaShape }),
  access: "viewer",
  readOnly: true,
  run: (input, ctx) => readCategorySchema(ctx.db, ctx.scope, input.entityId),
});

export const typeSchemaEditAction = defineAction({
  name: "type_schema_edit",
  family: "type",
  version: "1.0.0",
  title: "Edit a type's schema",
  description:
    "Replaces a type's fields whole, from the version the edit started at (read it with type_schema first, change the " +
    "fields, send them all back with that version); a stale version is refused with the current schema to restart from. " +
    "Or, with only `decision` (approve or reject), settles the schema change reading proposed. Members are re-read later; " +
    "type_refill re-reads them now. " +
    'Good call: {"entityId": "ent_…", "version": 3, "fields": [{"name": "severity", "type": "text", "required": true}]}.',
  input: z.object({
    entityId: z.string().min(1),
    fields: z.array(schemaFieldShape.partial({ description: true, required: true })).optional(),
    version: z.number().int().min(0).optional(),
    decision: decision(["approve", "reject"]).optional(),
  }),
  output: z.object({ categorySchema: categorySchemaShape.optional() }),
  access: "editor",
  readOnly: false,
  run: async (input, ctx) => {
    if (input.decision === "approve") return approveSchemaProposal(ctx.db, ctx.scope, input.entityId, ctx.tools);
    if (input.decision === "reject") return rejectSchemaProposal(ctx.db, ctx.scope, input.entityId, ctx.tools);
    return editSchema(ctx.db, ctx.scope, { entityId: input.entityId, fields: input.fields, version: input.version ?? -1 }, ctx.tools);
  },
});

export const typeRefillAction = defineAction({
  name: "type_refill",
  family: "type",
  version: "1.0.0",
  title: "Re-read a type's members",
  description:
    "Detached: reads every member of a type again against its schema as it stands (after a schema edit members are " +
    "otherwise re-read when new material mentions them). Answers {taskId, status: \"queued\"} at once; poll task_status " +
    "(or send a progress token to keep the call open until the task ends); the task's result is {entityId, filled}. " +
    'Good call: {"entityId": "ent_…"}.',
  input: z.object({ entityId: z.string().min(1) }),
  output: queuedTaskSchema,
  access: "editor",
  readOnly: false,
  detached: true,
  run: enqueueAs(TYPE_REFILL),
});
