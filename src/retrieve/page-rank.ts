/** An undirected edge between two nodes, with the weight a walker follows it by. */
export interface WeightedEdge {
  a: string;
  b: string;
  weight: number;
}

/**
 * Personalized PageRank over an undirected weighted graph, the one walk of
 * both retrievals (memory walks its cell–entity links with weight 1, the
 * code pack its declaration graph with typed weights): a walker
 * restarts at the personalization nodes (in proportion to their mass) with
 * probability `restart`, otherwise follows an edge in proportion to its
 * weight. A node with no edges sends its mass back to the start. Scores sum
 * to 1; nodes never reached are absent.
 */
export function weightedPageRank(
  edges: readonly WeightedEdge[],
  personalization: ReadonlyMap<string, number>,
  restart = 0.3,
  iterations = 20,
): Map<string, number> {
  return walk(edges, personalization, restart, iterations).rank;
}

/** The walk, and the mass it put back at the start on its last step (restarts and dead ends). */
function walk(edges: readonly WeightedEdge[], personalization: ReadonlyMap<string, number>, restart: number, iterations: number) {
  const total = [...personalization.values()].reduce((s, v) => s + Math.max(0, v), 0);
  if (total <= 0) return { rank: new Map<string, number>(), start: new Map<string, number>(), injected: 0 };
  const start = new Map([...personalization].filter(([, v]) => v > 0).map(([k, v]) => [k, v / total] as const));
  const out = adjacency(edges);
  let rank = new Map(start);
  let injected = 1;
  for (let i = 0; i < iterations; i++) {
    // Restart nodes head the map, then nodes as the walk reaches them: stable sorts by score break ties in that order.
    const next = new Map<string, number>([...start.keys()].map((k) => [k, 0]));
    let stuck = 0;
    for (const [node, mass] of rank) {
      const links = out.get(node);
      if (!links || links.total <= 0) {
        stuck += mass;
        continue;
      }
      for (const [to, w] of links.to) next.set(to, (next.get(to) ?? 0) + ((1 - restart) * mass * w) / links.total);
    }
    injected = restart + (1 - restart) * stuck;
    for (const [k, v] of start) next.set(k, next.get(k)! + injected * v);
    rank = next;
  }
  return { rank, start, injected };
}

function adjacency(edges: readonly WeightedEdge[]): Map<string, { to: Map<string, number>; total: number }> {
  const out = new Map<string, { to: Map<string, number>; total: number }>();
  const add = (from: string, to: string, w: number) => {
    const entry = out.get(from) ?? { to: new Map<string, number>(), total: 0 };
    entry.to.set(to, (entry.to.get(to) ?? 0) + w);
    entry.total += w;
    out.set(from, entry);
  };
  for (const e of edges) {
    if (e.weight <= 0 || e.a === e.b) continue;
    add(e.a, e.b, e.weight);
    add(e.b, e.a, e.weight);
  }
  return out;
}

/**
 * What a walk brought to each node beyond its own restart share (so a
 * start node is not rewarded for being one), scaled to 0..1 over the
 * nodes not in `ignore`.
 */
export function walkProximity(
  edges: readonly WeightedEdge[],
  start: ReadonlyMap<string, number>,
  restart: number,
  ignore: ReadonlySet<string> = new Set(),
): Map<string, number> {
  const w = walk(edges, start, restart, 20);
  const arrived = new Map<string, number>();
  for (const [node, mass] of w.rank) {
    if (!ignore.has(node)) arrived.set(node, Math.max(0, mass - w.injected * (w.start.get(node) ?? 0)));
  }
  const top = Math.max(0, ...arrived.values());
  return new Map([...arrived].map(([node, v]) => [node, top > 0 ? v / top : 0]));
}
