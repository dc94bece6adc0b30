import { Command } from "commander";
import { PKS_VERSION } from "../version.js";
import { keyCommand, memberCommand, projectCommand, sessionCommand, userCommand } from "./admin-commands.js";
import { callCommand } from "./call-command.js";
import { ingestCommand } from "./ingest-command.js";
import { mcpCommand } from "./mcp-command.js";
import { serveCommand } from "./serve-command.js";

/** The `pks` command line. */
export function buildCli(): Command {
  return new Command("pks")
    .description("project knowledge service: MCP and REST over a folder's code and documents")
    .version(PKS_VERSION)
    .addCommand(serveCommand())
    .addCommand(mcpCommand())
    .addCommand(callCommand())
    .addCommand(ingestCommand())
    .addCommand(userCommand())
    .addCommand(projectCommand())
    .addCommand(memberCommand())
    .addCommand(keyCommand())
    .addCommand(sessionCommand());
}
