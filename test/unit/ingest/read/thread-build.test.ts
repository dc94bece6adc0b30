import { afterEach, describe, expect, it } from "vitest";
import { useThreadBuild, workerEntryUrl } from "../../../../src/ingest/read/pool/spawn-reader.js";

const SOURCES = new URL("../../../../src/", import.meta.url);
const WRITER = new URL("ingest/read/writer/writer-thread.ts", SOURCES);

describe("thread entries from the sources", () => {
  const before = process.env.PKS_THREAD_BUILD;
  afterEach(() => useThreadBuild(before));

  it("load the JavaScript copy of the sources when there is one", () => {
    useThreadBuild("/tmp/copy");
    expect(workerEntryUrl(WRITER).href).toBe("file:///tmp/copy/src/ingest/read/writer/writer-thread.js");
  });

  it("register tsx first without a copy, and for a module outside the sources", () => {
    useThreadBuild(undefined);
    const boot = decodeURIComponent(workerEntryUrl(WRITER).href);
    expect(boot).toMatch(/^data:text\/javascript,/);
    expect(boot).toContain("register()");
    expect(boot).toContain(WRITER.href);
    useThreadBuild("/tmp/copy");
    const outside = new URL("../../../support/test-app.ts", import.meta.url);
    expect(decodeURIComponent(workerEntryUrl(outside).href)).toContain("register()");
  });
});
