import { afterEach, describe, expect, it, vi } from "vitest";
import { log, onLog, setLogOutput } from "../../src/logger.js";

describe("logger output", () => {
  afterEach(() => {
    setLogOutput("silent");
    vi.restoreAllMocks();
  });

  it("writes a JSON line to stderr when the output is stderr, and nothing when silent; listeners hear both", () => {
    const lines: string[] = [];
    vi.spyOn(process.stderr, "write").mockImplementation((chunk: string | Uint8Array) => {
      lines.push(String(chunk));
      return true;
    });
    const heard: string[] = [];
    const stop = onLog((r) => heard.push(r.msg));
    setLogOutput("stderr");
    log.info("first", { n: 1 });
    setLogOutput("silent");
    log.warn("second");
    stop();
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0] ?? "")).toMatchObject({ level: "info", msg: "first", n: 1 });
    expect(heard).toEqual(["first", "second"]);
  });
});
