/**
 * The typing pass's one read, for the whole pass and the incremental one
 * alike: the material of a project's ready files (or of some of them) in
 * pages of whole files (`typingMaterialPages`), each page turned into
 * instances and dropped before the next is read. What is kept is what the
 * pass needs afterwards: the instances that can be in a proposal (see
 * `canJoinShape`: most sections of a code project's documents state one
 * pair or none and can join nothing) and each file's instance sources (the
 * incremental pass's index). Instances are read one file at a time
 * (`readInstances`), so reading by pages gives the instances reading the
 * project at once gives; pages come in file id order, the order
 * `proposeShapes` takes them in.
 */
import type { Queryable } from "../store/db.js";
import { typingMaterialPages } from "../store/categories/typing-material.js";
import type { Instance, InstanceSource } from "./instance.js";
import { readInstances } from "./propose/read-instances.js";
import { canJoinShape } from "./propose/propose-shapes.js";

/** What one read of the typing material leaves. */
export interface TypingRead {
  /** The instances that can be in a proposal, in file id order. */
  instances: Instance[];
  /** The instance sources of each file read (a file with none is absent). */
  sources: Map<string, ReadonlySet<InstanceSource>>;
}

/** Reads the instances of a project's ready files, or of the ready files among `fileIds`, a page at a time. */
export async function readTyping(q: Queryable, projectId: string, fileIds?: readonly string[], pageRows?: number): Promise<TypingRead> {
  const instances: Instance[] = [];
  const sources = new Map<string, Set<InstanceSource>>();
  for await (const page of typingMaterialPages(q, projectId, fileIds, pageRows)) {
    for (const instance of readInstances(page.factions, page.cells)) {
      const set = sources.get(instance.fileId) ?? new Set<InstanceSource>();
      sources.set(instance.fileId, set.add(instance.source));
      if (canJoinShape(instance)) instances.push(instance);
    }
  }
  return { instances, sources };
}
