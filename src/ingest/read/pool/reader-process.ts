/**
 * The entry of a reader process: the same readings as a reader thread, in a
 * process of its own, for a file whose earlier reading was interrupted (it may
 * be what stopped the server). Whatever the file does here — exhaust native
 * memory, abort, kill its process — ends this process only. Its argument is
 * the reader list's URL; it answers over the IPC channel (advanced
 * serialization, so bytes cross as they do to a thread) and exits when the
 * server goes away.
 */
import { answerWith, loadReaders, readRequest } from "./read-request.js";
import type { ThreadAnswer, ThreadRequest } from "./thread-protocol.js";

const send = process.send?.bind(process);
if (!send) throw new Error("the reader process runs only as a child with an IPC channel");
const readersUrl = process.argv[2];
if (!readersUrl) throw new Error("the reader process needs the reader list's URL");
const readers = await loadReaders(readersUrl);
const post = (answer: ThreadAnswer) => void send(answer);

process.on("disconnect", () => process.exit(0));
process.on("message", (request: ThreadRequest) => {
  void readRequest(readers, request).then((answer) => answerWith(post, answer));
});
post({ type: "ready" });
