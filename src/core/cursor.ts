import { createHmac, timingSafeEqual } from "node:crypto";
import { AppError } from "../errors.js";

/**
 * Opaque, tamper-evident paging cursors. A cursor is the page position
 * (JSON, base64url) plus an HMAC over the position and the read's scope
 * (route, project, filters), so a cursor from another read is refused.
 */
export interface CursorCodec {
  encode(scope: string, position: unknown): string;
  /** Returns the position, or throws 400 `invalid cursor`. */
  decode<T>(scope: string, cursor: string): T;
}

const MAX_CURSOR_LENGTH = 2048;

export function createCursorCodec(secret: string): CursorCodec {
  const sign = (scope: string, payload: string) =>
    createHmac("sha256", secret).update(scope).update("\0").update(payload).digest("base64url").slice(0, 32);
  return {
    encode(scope, position) {
      const payload = Buffer.from(JSON.stringify(position), "utf8").toString("base64url");
      return `${payload}.${sign(scope, payload)}`;
    },
    decode<T>(scope: string, cursor: string): T {
      const invalid = new AppError("invalid_cursor");
      if (typeof cursor !== "string" || cursor.length > MAX_CURSOR_LENGTH) throw invalid;
      const [payload, mac, extra] = cursor.split(".");
      if (!payload || !mac || extra !== undefined) throw invalid;
      const expected = Buffer.from(sign(scope, payload));
      const given = Buffer.from(mac);
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw invalid;
      try {
        return JSON.parse(Buffer.from(payload, "base64url").toString("utf8")) as T;
      } catch {
        throw invalid;
      }
    },
  };
}
