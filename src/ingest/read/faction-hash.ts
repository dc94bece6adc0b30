import { createHash } from "node:crypto";
import type { ReadFaction } from "../../readers/reader.js";

/** A faction's identity across re-reads: its kind and its text, not its place. */
export function factionHash(f: Pick<ReadFaction, "factionType" | "inferredType" | "text">): string {
  return createHash("sha256").update(f.factionType).update("\0").update(f.inferredType).update("\0").update(f.text).digest("base64url");
}
