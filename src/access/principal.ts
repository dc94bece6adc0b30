import type { KeyTier } from "../store/access/api-keys.js";

/** Who is calling: resolved once per request by a transport. */
export interface Principal {
  userId: string;
  /** How the caller proved itself: an API key, a session token, or the local stdio owner. */
  via: "key" | "session" | "local";
  keyId: string | null;
  tier: KeyTier;
  /** A key bound to one project reaches only that project, and needs no project header. */
  boundProjectId: string | null;
  /** The named-object type a `submit` key (or a bound key) submits records to. */
  boundTypeId: string | null;
}
