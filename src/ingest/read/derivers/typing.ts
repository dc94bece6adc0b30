import { reviewTouched, TypingIndex } from "../../../categories/typing-index.js";
import type { Deriver } from "./deriver.js";

/**
 * Typed knowledge: once the reading queue drains, the files its batch
 * settled are read for instances and their shapes proposed, refreshed or
 * dropped (see categories/typing-index.ts). Each writer term starts a new
 * index: another process may have read files meanwhile.
 */
export const typingDeriver: Deriver = {
  name: "typing",
  afterDrain() {
    const index = new TypingIndex();
    return (db, touched, clock) => reviewTouched(db, index, touched, clock);
  },
};
