import type { Link } from "../store/graph/graph-neighbors.js";

export interface WalkScores {
  cells: Map<string, number>;
  entities: Map<string, number>;
}

/**
 * Personalized PageRank over the bipartite cell–entity graph: a walker
 * restarts at the seed entities with probability `restart`, otherwise moves
 * to a uniformly chosen neighbour. Scores sum to 1 over the visited nodes.
 */
export function personalizedPageRank(links: readonly Link[], seeds: readonly string[], restart = 0.3, iterations = 20): WalkScores {
  const neighbours = new Map<string, string[]>();
  const add = (a: string, b: string) => neighbours.set(a, [...(neighbours.get(a) ?? []), b]);
  for (const l of links) {
    add(`c:${l.cellId}`, `e:${l.entityId}`);
    add(`e:${l.entityId}`, `c:${l.cellId}`);
  }
  const start = new Map<string, number>(seeds.filter((s) => neighbours.has(`e:${s}`)).map((s) => [`e:${s}`, 1]));
  if (start.size === 0) return { cells: new Map(), entities: new Map() };
  for (const [k] of start) start.set(k, 1 / start.size);
  let rank = new Map<string, number>(start);
  for (let i = 0; i < iterations; i++) {
    const next = new Map<string, number>();
    for (const [k, v] of start) next.set(k, restart * v);
    for (const [node, mass] of rank) {
      const out = neighbours.get(node);
      if (!out?.length) {
        for (const [k, v] of start) next.set(k, (next.get(k) ?? 0) + (1 - restart) * mass * v);
        continue;
      }
      const share = ((1 - restart) * mass) / out.length;
      for (const n of out) next.set(n, (next.get(n) ?? 0) + share);
    }
    rank = next;
  }
  const cells = new Map<string, number>();
  const entities = new Map<string, number>();
  for (const [k, v] of rank) (k.startsWith("c:") ? cells : entities).set(k.slice(2), v);
  return { cells, entities };
}
