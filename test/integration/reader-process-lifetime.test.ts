/**
 * A reader process (the isolated re-read of a suspect file) never outlives
 * its server and never reads on past its own limit, even while a reading
 * holds its only JavaScript thread in a loop that never yields.
 */
import { spawn } from "node:child_process";
import type { ChildProcess } from "node:child_process";
import { once } from "node:events";
import { afterEach, describe, expect, it } from "vitest";
import { spawnReaderProcess } from "../../src/ingest/read/pool/spawn-reader.js";
import type { ThreadAnswer } from "../../src/ingest/read/pool/thread-protocol.js";
import { REPO_ROOT } from "../support/spawn-pks.js";

const HOSTILE_READERS = new URL("../fixtures/readers-hostile/hostile-readers.ts", import.meta.url).href;
const SPIN = { path: "spin-forever.md", contentType: "text/markdown", bytes: new TextEncoder().encode("# spin\n"), includeSecret: false };

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function goneWithin(pid: number, ms: number): Promise<boolean> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (!alive(pid)) return true;
    await new Promise((r) => setTimeout(r, 100));
  }
  return !alive(pid);
}

/** A stand-in server: forks a reader process, hands it a file that spins forever, prints the reader's pid, and waits. */
const SERVER = `
const { spawnReaderProcess } = await import(${JSON.stringify(new URL("../../src/ingest/read/pool/spawn-reader.ts", import.meta.url).href)});
const child = spawnReaderProcess(${JSON.stringify(HOSTILE_READERS)}, 256, 600000);
child.on("message", (m) => {
  if (m.type !== "ready") return;
  child.send({ path: "spin-forever.md", contentType: "text/markdown", includeSecret: false, bytes: new TextEncoder().encode("# spin") });
  setTimeout(() => console.log("reader " + child.pid), 300);
});
setInterval(() => {}, 1000);
`;

describe("reader process lifetime", () => {
  const started: number[] = [];
  afterEach(() => {
    for (const pid of started.splice(0)) if (alive(pid)) process.kill(pid, "SIGKILL");
  });

  it("a reader process dies with its server, even in the middle of a reading that never yields", async () => {
    const server = spawn(process.execPath, ["--import", "tsx", "--input-type=module", "-e", SERVER], { cwd: REPO_ROOT, stdio: ["ignore", "pipe", "inherit"] });
    started.push(server.pid!);
    let out = "";
    server.stdout.on("data", (d: Buffer) => (out += d.toString()));
    const end = Date.now() + 60_000;
    while (!/reader (\d+)/.test(out) && Date.now() < end) await new Promise((r) => setTimeout(r, 100));
    const reader = Number(/reader (\d+)/.exec(out)?.[1]);
    expect(reader).toBeGreaterThan(0);
    started.push(reader);
    expect(alive(reader)).toBe(true);
    server.kill("SIGKILL");
    await once(server, "exit");
    expect(await goneWithin(reader, 10_000)).toBe(true);
  });

  it("a reader process ends a reading that outlives its own limit, with no server limit to stop it", async () => {
    const child: ChildProcess = spawnReaderProcess(HOSTILE_READERS, 256, 1500);
    started.push(child.pid!);
    const exited = once(child, "exit");
    await new Promise<void>((resolve) => child.on("message", (m: ThreadAnswer) => m.type === "ready" && resolve()));
    const sentAt = Date.now();
    child.send(SPIN);
    const [, signal] = (await Promise.race([exited, new Promise((r) => setTimeout(() => r([null, "still running"]), 20_000))])) as [unknown, string];
    expect(signal).toBe("SIGKILL");
    expect(Date.now() - sentAt).toBeGreaterThanOrEqual(1500);
  });
});
