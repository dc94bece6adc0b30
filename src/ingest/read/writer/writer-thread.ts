/**
 * The entry of the writer thread: its own connection to the store (role
 * `writer`), and the reading worker on it — claims, the reader pool, the
 * group commits of readings and everything derived from them, the pass
 * after reading. The serving thread keeps answering requests on its own
 * connections meanwhile. Its log records go to the serving thread, which
 * writes them and hands them to its listeners (MCP sessions hear them).
 */
import { parentPort, workerData } from "node:worker_threads";
import type { WriteRequest } from "../../../core/tools.js";
import { onLog, setLogOutput } from "../../../logger.js";
import { openDatabase } from "../../../store/db.js";
import { SpaceFloor } from "../../../store/free-space.js";
import { WriteTurns } from "../../../store/write-turns.js";
import { writeOn } from "../../accept/batch-writes.js";
import { IngestWorker } from "../ingest-worker.js";
import { LeasedWorker } from "./leased-worker.js";
import { sendError } from "./writer-protocol.js";
import type { WriterAnswer, WriterData, WriterRequest } from "./writer-protocol.js";

const port = parentPort;
if (!port) throw new Error("the writer thread runs only inside a worker thread");
const data = workerData as WriterData;
const post = (answer: WriterAnswer) => port.postMessage(answer);
// Records are written once, by the serving thread.
setLogOutput("silent");
onLog((record) => post({ type: "log", record }));

try {
  const db = await openDatabase({ url: data.url, authToken: data.authToken, role: "writer", turns: new WriteTurns(data.turns) });
  const floor = new SpaceFloor(data.url, data.minFreeMb);
  // Of the processes on this database, the one holding the writer lease reads and writes; each
  // lease term is a new worker, with new passes after reading (another process may have read files meanwhile).
  const worker = new LeasedWorker(
    db,
    (holds) => new IngestWorker({ db, clock: Date.now, reading: data.reading, readersUrl: data.readersUrl, holds, room: () => floor.above() }),
  );
  // Writes under way: the connection closes only once they answered.
  const writing = new Set<Promise<void>>();
  const write = (id: number, request: WriteRequest) => {
    const done: Promise<void> = writeOn(db, request)
      .then((value) => post({ type: "written", id, value }), (error: unknown) => post({ type: "written", id, error: sendError(error) }))
      .finally(() => writing.delete(done));
    writing.add(done);
  };
  port.on("message", (request: WriterRequest) => {
    if (request.type === "kick") worker.kick();
    else if (request.type === "write") write(request.id, request.request);
    else if (request.type === "idle") void worker.whenIdle().then(() => post({ type: "idle", id: request.id }));
    else
      void Promise.all([worker.stop(), ...writing]).finally(() => {
        db.close();
        post({ type: "stopped" });
        port.close();
      });
  });
  await worker.start();
  post({ type: "started" });
} catch (err) {
  post({ type: "start-failed", message: err instanceof Error ? err.message : String(err) });
  port.close();
}
