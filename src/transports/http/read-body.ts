import { AppError } from "../../errors.js";
import type { ErrorCode } from "../../errors.js";
import { parseJsonObject } from "../../core/raw-body.js";

/** 1 MiB: the JSON request body limit. */
export const JSON_BODY_LIMIT = 1_048_576;

/**
 * Reads a request body, counting bytes as they stream in (a missing or lying
 * `Content-Length` changes nothing), and stops at `limit` with `tooLarge`.
 */
export async function readBodyBytes(req: Request, limit: number, tooLarge: ErrorCode): Promise<Uint8Array> {
  const declared = Number(req.headers.get("content-length") ?? Number.NaN);
  if (Number.isFinite(declared) && declared > limit) throw new AppError(tooLarge);
  if (!req.body) return new Uint8Array(0);
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = req.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel().catch(() => undefined);
      throw new AppError(tooLarge);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks);
}

/**
 * Reads and parses a JSON object body of at most `limit` bytes (1 MiB unless
 * the route says otherwise; past it, `tooLarge`). Anything but a UTF-8 JSON
 * object is 400 `invalid request body`.
 */
export async function readJsonObject(
  req: Request,
  limit = JSON_BODY_LIMIT,
  tooLarge: ErrorCode = "invalid_request_body",
): Promise<Record<string, unknown>> {
  return parseJsonObject(await readBodyBytes(req, limit, tooLarge));
}
