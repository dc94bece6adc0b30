import type { EventId, EventStore, StreamId } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";

/** How much one session's event store keeps. */
export interface EventStoreBounds {
  /** Most events kept. */
  readonly maxEvents: number;
  /** Most bytes of serialized messages kept (the newest event is kept whatever its size). */
  readonly maxBytes: number;
  /** Events older than this are forgotten. */
  readonly maxAgeMs: number;
}

/**
 * 256 events, 4 MiB, 5 minutes. A client resumes within seconds of losing a
 * stream (the `retry` the priming event names, then a few more tries), so
 * minutes of history are plenty; the caps keep a session that streams large
 * answers from holding more than one large answer's worth for long.
 */
export const DEFAULT_EVENT_BOUNDS: EventStoreBounds = { maxEvents: 256, maxBytes: 4 * 1_048_576, maxAgeMs: 5 * 60_000 };

interface StoredEvent {
  readonly streamId: StreamId;
  readonly message: JSONRPCMessage;
  readonly bytes: number;
  readonly at: number;
}

/**
 * One MCP session's SSE history, so a client that loses a stream can
 * reconnect with `Last-Event-ID` and get what it missed (MCP streamable HTTP
 * resumability). It lives in memory with its session: a session is itself
 * in-memory state of one process, so a store that outlived it could never
 * be asked. Bounded by count, bytes and age (oldest dropped first); an event
 * id that was dropped, or never issued, cannot be resumed from (the SDK
 * answers 400 and the client sends its request again).
 */
export class SessionEventStore implements EventStore {
  readonly #events = new Map<EventId, StoredEvent>();
  readonly #bounds: EventStoreBounds;
  readonly #clock: () => number;
  #seq = 0;
  #bytes = 0;

  constructor(bounds: EventStoreBounds = DEFAULT_EVENT_BOUNDS, clock: () => number = Date.now) {
    this.#bounds = bounds;
    this.#clock = clock;
  }

  /** Events held now. */
  get size(): number {
    return this.#events.size;
  }

  storeEvent(streamId: StreamId, message: JSONRPCMessage): Promise<EventId> {
    const id = String(++this.#seq);
    const bytes = Buffer.byteLength(JSON.stringify(message));
    this.#events.set(id, { streamId, message, bytes, at: this.#clock() });
    this.#bytes += bytes;
    this.#trim();
    return Promise.resolve(id);
  }

  getStreamIdForEventId(eventId: EventId): Promise<StreamId | undefined> {
    this.#trim();
    return Promise.resolve(this.#events.get(eventId)?.streamId);
  }

  async replayEventsAfter(lastEventId: EventId, { send }: { send: (eventId: EventId, message: JSONRPCMessage) => Promise<void> }): Promise<StreamId> {
    const last = this.#events.get(lastEventId);
    if (!last) throw new Error(`event ${lastEventId} is no longer held`);
    // A snapshot: events stored while replaying reach the resumed stream directly.
    const after = [...this.#events].filter(([id, e]) => Number(id) > Number(lastEventId) && e.streamId === last.streamId);
    for (const [id, e] of after) await send(id, e.message);
    return last.streamId;
  }

  #trim(): void {
    const { maxEvents, maxBytes, maxAgeMs } = this.#bounds;
    const cutoff = this.#clock() - maxAgeMs;
    for (const [id, e] of this.#events) {
      const over = this.#events.size > maxEvents || (this.#bytes > maxBytes && this.#events.size > 1) || e.at < cutoff;
      if (!over) break;
      this.#events.delete(id);
      this.#bytes -= e.bytes;
    }
  }
}
