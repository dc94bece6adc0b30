/**
 * The entry of a reader process: the same readings as a reader thread, in a
 * process of its own, for a file whose earlier reading was interrupted (it may
 * be what stopped the server). Whatever the file does here — exhaust native
 * memory, abort, kill its process — ends this process only. Its argument is
 * the reader list's URL; it answers over the IPC channel (advanced
 * serialization, so bytes cross as they do to a thread) and exits when the
 * server goes away. Its second argument is its own wall-clock limit for one
 * reading, in ms.
 *
 * A reading may hold this process's only JavaScript thread for minutes, and
 * then neither the channel's `disconnect` nor a timer of that thread ever
 * runs: a server killed meanwhile left its reader running on, orphaned. So a
 * watchdog thread, which no reading blocks, ends the process when its parent
 * is gone (the parent id changes when it dies) or when a reading outlives
 * the limit (the server's own limit, which normally ends it first, died with
 * the server).
 */
import { answerWith, loadReaders, readRequest, relayLogsTo } from "./read-request.js";
import { startWatchdog } from "./reader-watchdog.js";
import type { ThreadAnswer, ThreadRequest } from "./thread-protocol.js";

const send = process.send?.bind(process);
if (!send) throw new Error("the reader process runs only as a child with an IPC channel");
const readersUrl = process.argv[2];
if (!readersUrl) throw new Error("the reader process needs the reader list's URL");
const limitMs = Number(process.argv[3]);
if (!(limitMs > 0)) throw new Error("the reader process needs its time limit in ms");
const watchdog = startWatchdog(limitMs);
const readers = await loadReaders(readersUrl);
const post = (answer: ThreadAnswer) => void send(answer);
relayLogsTo(post);

process.on("disconnect", () => process.exit(0));
process.on("message", (request: ThreadRequest) => {
  watchdog.postMessage("reading");
  void readRequest(readers, request).then((answer) => {
    watchdog.postMessage("idle");
    answerWith(post, answer);
  });
});
post({ type: "ready" });
