import { vi } from "vitest";
import { buildCli } from "../../src/cli/build-cli.js";

/** Runs `pks ARGS` in-process and returns what it wrote to stdout. */
export async function runCli(...args: string[]): Promise<string> {
  let out = "";
  const spy = vi.spyOn(process.stdout, "write").mockImplementation((chunk: string | Uint8Array) => {
    out += String(chunk);
    return true;
  });
  try {
    const argv = ["node", "pks", ...args];
    await (await buildCli(argv)).exitOverride().parseAsync(argv);
  } finally {
    spy.mockRestore();
  }
  return out;
}
