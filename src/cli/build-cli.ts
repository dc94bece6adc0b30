import { Command } from "commander";
import { PKS_VERSION } from "../version.js";

/**
 * The commands in help order, each with the module that defines it, loaded
 * only when needed: a command's module brings what it runs (the app, the
 * HTTP server, the MCP transport), and `pks mcp`, spawned by a client for
 * every session, should not wait for the others' modules.
 */
const COMMANDS: ReadonlyArray<{ names: readonly string[]; load: () => Promise<Command[]> }> = [
  { names: ["serve"], load: async () => [(await import("./serve-command.js")).serveCommand()] },
  { names: ["mcp"], load: async () => [(await import("./mcp-command.js")).mcpCommand()] },
  { names: ["call"], load: async () => [(await import("./call-command.js")).callCommand()] },
  { names: ["ingest"], load: async () => [(await import("./ingest-command.js")).ingestCommand()] },
  {
    names: ["user", "project", "member", "key", "session"],
    load: async () => {
      const admin = await import("./admin-commands.js");
      return [admin.userCommand(), admin.projectCommand(), admin.memberCommand(), admin.keyCommand(), admin.sessionCommand()];
    },
  },
];

/**
 * The `pks` command line for `argv` (as `process.argv`: node, the script,
 * then the arguments). The command `argv` names is the only one loaded;
 * without one (help, an unknown name) every command is, so help lists them
 * all and commander can suggest a name.
 */
export async function buildCli(argv: readonly string[] = process.argv): Promise<Command> {
  const named = argv.slice(2).find((a) => !a.startsWith("-"));
  const one = COMMANDS.find((c) => named !== undefined && c.names.includes(named));
  const loaded = await Promise.all((one ? [one] : COMMANDS).map((c) => c.load()));
  const cli = new Command("pks").description("project knowledge service: MCP and REST over a folder's code and documents").version(PKS_VERSION);
  for (const command of loaded.flat()) cli.addCommand(command);
  return cli;
}
