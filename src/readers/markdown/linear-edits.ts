/**
 * Makes the Markdown parser linear in the length of nested lists. When a
 * container closes inside another (each item of a list holding its own
 * list or quote), micromark moves a few events near the end of its event
 * list with an `EditMap`, whose `consume` rebuilds the whole list: every
 * line then costs as much as the document so far, and a 200 KB changelog
 * of nested bullets takes minutes. The replacement `consume` below makes
 * the same edits touching only the events from the first edit on.
 *
 * `micromark-util-edit-map` is micromark's own dependency (one copy,
 * shared by the parser and its extensions); the hostile-document tests
 * hold the parser to linear time, so a copy this module did not reach
 * would show.
 */
import { EditMap } from "micromark-util-edit-map";

type Event = Parameters<EditMap["consume"]>[0][number];

/**
 * The events after applying the edits `map` (sorted, not overlapping) to
 * `events`, from the first edit's index on: what replaces
 * `events[map[0][0]..]`.
 */
function editedTail(events: readonly Event[], map: EditMap["map"]): Event[] {
  const tail: Event[] = [];
  map.forEach(([at, remove, add], i) => {
    for (const event of add) tail.push(event);
    const end = map[i + 1]?.[0] ?? events.length;
    for (let j = at + remove; j < end; j++) tail.push(events[j] as Event);
  });
  return tail;
}

/**
 * Same result as micromark's `consume` (the events before the first edit,
 * then each edit's additions and the kept events up to the next edit),
 * in time proportional to the events from the first edit on.
 */
function consumeTail(this: EditMap, events: Event[]): undefined {
  this.map.sort((a, b) => a[0] - b[0]);
  const first = this.map[0];
  if (first === undefined) return;
  const tail = editedTail(events, this.map);
  events.length = first[0];
  for (const event of tail) events.push(event);
  this.map.length = 0;
  this.index.clear();
}

let installed = false;

/** Installs the linear `consume` once per process (idempotent). */
export function useLinearEdits(): void {
  if (installed) return;
  EditMap.prototype.consume = consumeTail;
  installed = true;
}
