import type { MiddlewareHandler } from "hono";
import type { ServiceDeps } from "../../core/deps.js";
import { AppError } from "../../errors.js";
import { log } from "../../logger.js";
import { takeRateSlot } from "../../store/access/rate-events.js";
import type { HttpEnv } from "./http-env.js";

/**
 * 60 requests in any rolling minute per key (sliding log in the store, so
 * REST, MCP over HTTP and every process share it). Over the limit: 429 with
 * `Retry-After`. A failing limiter store fails closed (503).
 */
export function rateLimit(deps: ServiceDeps): MiddlewareHandler<HttpEnv> {
  return async (c, next) => {
    const p = c.get("principal");
    const subject = p.keyId ? `key:${p.keyId}` : `user:${p.userId}`;
    let decision;
    try {
      decision = await takeRateSlot(deps.db, subject, deps.clock(), deps.config.rateLimit);
    } catch (err) {
      log.error("rate limiter unavailable", { error: err });
      throw new AppError("unavailable", { headers: { "Retry-After": "1" } });
    }
    if (!decision.allowed) {
      throw new AppError("rate_limited", { headers: { "Retry-After": String(decision.retryAfterSeconds) } });
    }
    await next();
  };
}
