import { AppError } from "../../errors.js";
import { JSON_BODY_LIMIT, readBodyBytes } from "./read-body.js";

/** Reads a JSON-RPC body (an object or a batch array) of at most 1 MiB. */
export async function readJsonObjectOrArray(req: Request): Promise<unknown> {
  const bytes = await readBodyBytes(req, JSON_BODY_LIMIT, "invalid_request_body");
  try {
    const value: unknown = JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(bytes));
    if (value !== null && typeof value === "object") return value;
  } catch {
    // fall through to the refusal below
  }
  throw new AppError("invalid_request_body");
}
