import { AppError } from "../../errors.js";
import type { ErrorCode } from "../../errors.js";
import { parseJsonObject } from "../../core/raw-body.js";

/** 1 MiB: the JSON request body limit. */
export const JSON_BODY_LIMIT = 1_048_576;

/**
 * Reads a request body, counting bytes as they stream in (a missing or lying
 * `Content-Length` changes nothing), and stops at `limit` with `tooLarge`.
 * Each chunk is copied into the body as it comes ({@link BodyBytes}), so a
 * large body is never copied whole in one task: joining a 22 MB upload's
 * chunks at the end held the serving thread 200–280 ms at once, while
 * every other request waited.
 */
export async function readBodyBytes(req: Request, limit: number, tooLarge: ErrorCode): Promise<Uint8Array> {
  const declared = Number(req.headers.get("content-length") ?? Number.NaN);
  if (Number.isFinite(declared) && declared > limit) throw new AppError(tooLarge);
  if (!req.body) return new Uint8Array(0);
  const body = new BodyBytes(Number.isInteger(declared) && declared > 0 ? declared : 0);
  const reader = req.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    if (body.size + value.byteLength > limit) {
      await reader.cancel().catch(() => undefined);
      throw new AppError(tooLarge);
    }
    body.add(value);
  }
  return body.bytes();
}

/**
 * A body's bytes, gathered in one buffer: sized by the declared length when
 * there is one (the usual case: the body is then that buffer, whole, which an
 * accept thread can take without a copy), grown by doubling when the length
 * was absent or short. A declared length is at most the route's limit, and
 * the body is read only after the caller's key and rate were checked, so a
 * length that overstates holds no more than a body that size would.
 */
class BodyBytes {
  #buffer: Uint8Array;
  size = 0;

  constructor(expected: number) {
    this.#buffer = new Uint8Array(expected);
  }

  add(chunk: Uint8Array): void {
    const needed = this.size + chunk.byteLength;
    if (needed > this.#buffer.byteLength) {
      const grown = new Uint8Array(Math.max(needed, this.#buffer.byteLength * 2));
      grown.set(this.#buffer.subarray(0, this.size));
      this.#buffer = grown;
    }
    this.#buffer.set(chunk, this.size);
    this.size = needed;
  }

  bytes(): Uint8Array {
    return this.size === this.#buffer.byteLength ? this.#buffer : this.#buffer.subarray(0, this.size);
  }
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
