import { z } from "zod";
import { defineAction } from "../src/core/action.js";
import { submitRecord } from "../src/records/submit-record.js";

const input = z.strictObject(
  {
    data: z
      .record(z.string(), z.unknown(), { error: "must be an object of field values" })
      .describe("The record: one value per field of the schema your key is bound to (field name → value)."),
    honeypot: z
      .string()
      .max(10_000)
      .optional()
      .describe("The trap field of a public form: leave it out or empty. A filled one is accepted and never shown."),
  },
  {
    error: (issue) =>
      issue.code === "unrecognized_keys"
        ? `unknown key ${issue.keys.map((k) => `"${k}"`).join(", ")}: a record is filed under the schema its key is bound to`
        : undefined,
  },
);

/**
 * `object_submit`: files one record under the artifact schema the caller's
 * key is bound to (never one the submission names). A `submit` key bound to
 * a schema, or an editor's standard key bound to one, may call it.
 */
export const objectSubmitAction = defineAction({
  name: "object_submit",
  family: "artifact",
  version: "1.0.0",
  title: "Submit a record",
  description:
    "Stores one record against the artifact schema your API key is bound to (over stdio: the one pks was started with, " +
    "--submit-type): data holds a value for each field (every " +
    "required field, each of its declared type: string, number, integer, boolean, string[] or number[]; no other keys). " +
    "A record that does not match is refused and nothing is stored. A stored record is listed by the records read and " +
    "found by memory_query. Answers {recordId}. Good call: {\"data\": {\"name\": \"Ada\", \"score\": 3}}.",
  input,
  output: z.object({ recordId: z.string() }),
  access: "viewer",
  tiers: ["standard", "submit"],
  readOnly: false,
  run: (args, ctx) => submitRecord(ctx.db, { principal: ctx.principal, scope: ctx.scope }, args, ctx.tools),
});
