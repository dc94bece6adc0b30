import { describe, expect, it } from "vitest";
import { AppError } from "../../../src/errors.js";
import { readBodyBytes } from "../../../src/transports/http/read-body.js";

/** A request whose body streams `chunks` in turn, with `length` as its Content-Length (none when undefined). */
function request(chunks: Uint8Array[], length: number | undefined): Request {
  let i = 0;
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (i < chunks.length) controller.enqueue(chunks[i++]!);
      else controller.close();
    },
  });
  const headers = length === undefined ? undefined : { "content-length": String(length) };
  return new Request("http://127.0.0.1/v1/x", { method: "POST", body, headers, duplex: "half" } as RequestInit);
}

/** `n` chunks of `size` bytes, chunk i filled with i. */
function chunks(n: number, size: number): Uint8Array[] {
  return Array.from({ length: n }, (_, i) => new Uint8Array(size).fill(i % 256));
}

/** Whether `bytes` are the chunks joined (compared as buffers: element-wise equality of megabytes is slow). */
function isJoined(bytes: Uint8Array, parts: Uint8Array[]): boolean {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).equals(Buffer.concat(parts));
}

describe("readBodyBytes", () => {
  it("reads a body declared at its length into one buffer of exactly that length", async () => {
    const parts = chunks(40, 65_536);
    const bytes = await readBodyBytes(request(parts, 40 * 65_536), 10_000_000, "request_too_large");
    expect(isJoined(bytes, parts)).toBe(true);
    expect(bytes.byteOffset).toBe(0);
    expect(bytes.buffer.byteLength).toBe(40 * 65_536);
  });

  it("reads a body with no length, a short one or a long one the same", async () => {
    const parts = chunks(9, 10_000);
    for (const length of [undefined, 5, 1_000_000]) {
      expect(isJoined(await readBodyBytes(request(parts, length), 10_000_000, "request_too_large"), parts)).toBe(true);
    }
  });

  it("keeps none of the stream's chunks: each is copied as it comes", async () => {
    const parts = chunks(3, 1000);
    let i = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        // The producer reuses its last chunk once the reader took it.
        if (i > 0) parts[i - 1]!.fill(255);
        if (i < parts.length) controller.enqueue(parts[i++]!);
        else controller.close();
      },
    });
    const req = new Request("http://127.0.0.1/v1/x", { method: "POST", body, duplex: "half" } as RequestInit);
    const bytes = await readBodyBytes(req, 10_000, "request_too_large");
    expect([...bytes.subarray(0, 1)]).toEqual([0]);
    expect([...bytes.subarray(1000, 1001)]).toEqual([1]);
    expect([...bytes.subarray(2000, 2001)]).toEqual([2]);
  });

  it("refuses a body past the limit, declared or streamed", async () => {
    const parts = chunks(4, 1000);
    await expect(readBodyBytes(request(parts, 4000), 3999, "request_too_large")).rejects.toMatchObject({ code: "request_too_large" });
    await expect(readBodyBytes(request(parts, 10), 3999, "request_too_large")).rejects.toBeInstanceOf(AppError);
    await expect(readBodyBytes(request(parts, undefined), 3999, "request_too_large")).rejects.toMatchObject({ code: "request_too_large" });
  });
});
