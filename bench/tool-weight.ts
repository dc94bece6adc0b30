/**
 * Tool weight: what `tools/list` costs a model's context, per tool profile.
 * A client puts every listed tool (name, description, input schema, and the
 * output schema where it passes one on) into the model's context on every
 * turn; the figure is the tokens of that list as the client receives it.
 *
 * For each profile (`--tools all`, the default, and `--tools code`) a real
 * SDK client lists the tools of a server made the way `pks mcp` makes it,
 * and the list is counted with the project's token counter (the configured
 * tiktoken encoding, o200k_base unless `PKS_TOKENIZER` says otherwise):
 * whole, and with each tool's `outputSchema` left out (clients that do not
 * pass output schemas to the model). `all` is the baseline of the run.
 *
 *   npm run bench -- tool-weight [--profiles all,code]
 *
 * Writes bench/results/tool-weight.json.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import type { Tool } from "@modelcontextprotocol/sdk/types.js";
import { ensureLocalProject, localPrincipal } from "../src/access/local-project.js";
import { createApp } from "../src/app.js";
import { loadConfig } from "../src/config.js";
import { tokenCounter } from "../src/retrieve/token-counter.js";
import { createMcpServer } from "../src/transports/mcp/server.js";

const REPO = fileURLToPath(new URL("..", import.meta.url));

interface Weight {
  profile: string;
  tools: string[];
  tokens: number;
  tokensWithoutOutputSchemas: number;
  characters: number;
}

function flag(name: string, fallback: string): string {
  const at = process.argv.indexOf(`--${name}`);
  return at >= 0 && process.argv[at + 1] ? process.argv[at + 1]! : fallback;
}

/** The tools a `pks mcp --tools <profile>` lists, through an SDK client. */
async function listTools(profile: string): Promise<Tool[]> {
  const root = mkdtempSync(join(tmpdir(), "pks-tool-weight-"));
  const app = await createApp(loadConfig({ root, db: ":memory:", tools: profile }, { PKS_TOKENIZER: process.env.PKS_TOKENIZER }), { startWorker: false });
  try {
    const local = await ensureLocalProject(app.deps.db, root);
    const server = createMcpServer({
      service: app.service,
      catalog: app.mcpCatalog,
      maxResultTokens: app.deps.config.maxResultTokens,
      endpoints: app.endpoints,
      caller: () => ({ principal: localPrincipal(local), projectId: local.projectId }),
      instructions: "",
    });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    const client = new Client({ name: "tool-weight", version: "1.0.0" });
    await client.connect(clientSide);
    const { tools } = await client.listTools();
    await client.close();
    await server.close();
    return tools;
  } finally {
    await app.close();
    rmSync(root, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  const count = tokenCounter(loadConfig({ root: REPO }, { PKS_TOKENIZER: process.env.PKS_TOKENIZER }).tokenizer);
  const weights: Weight[] = [];
  for (const profile of flag("profiles", "all,code").split(",")) {
    const tools = await listTools(profile);
    const text = JSON.stringify({ tools });
    const bare = JSON.stringify({ tools: tools.map(({ outputSchema: _outputSchema, ...rest }) => rest) });
    weights.push({ profile, tools: tools.map((t) => t.name), tokens: count(text), tokensWithoutOutputSchemas: count(bare), characters: text.length });
  }
  const base = weights[0]!;
  process.stdout.write("profile  tools  tokens (with output schemas)  tokens (without)  vs " + base.profile + "\n");
  for (const w of weights) {
    const ratio = (w.tokens / base.tokens).toFixed(3);
    const ratioBare = (w.tokensWithoutOutputSchemas / base.tokensWithoutOutputSchemas).toFixed(3);
    process.stdout.write(`${w.profile.padEnd(8)} ${String(w.tools.length).padStart(5)}  ${String(w.tokens).padStart(28)}  ${String(w.tokensWithoutOutputSchemas).padStart(16)}  ${ratio} / ${ratioBare}\n`);
    process.stdout.write(`         ${w.tools.join(", ")}\n`);
  }
  mkdirSync(join(REPO, "bench", "results"), { recursive: true });
  writeFileSync(join(REPO, "bench", "results", "tool-weight.json"), JSON.stringify({ weights }, null, 2));
}

await main();
