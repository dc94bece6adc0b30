import { Command } from "commander";
import { ensureLocalProject, localPrincipal } from "../access/local-project.js";
import { AppError } from "../errors.js";
import { loadRootConfig, printJson, withApp, withStoreOptions } from "./store-options.js";

/** `pks call ACTION [JSON]`: runs one action on the folder's project and prints the result. */
export function callCommand(): Command {
  return withStoreOptions(new Command("call").description("run one action against the local project"))
    .argument("<action>", "action id, e.g. memory_query")
    .argument("[input]", "the action's input as JSON", "{}")
    .action(async (action: string, input: string, o) => {
      let parsed: unknown;
      try {
        parsed = JSON.parse(input);
      } catch {
        throw new AppError("invalid_input", { message: "input must be JSON" });
      }
      const config = loadRootConfig(o);
      await withApp(o, async (app) => {
        const local = await ensureLocalProject(app.deps.db, config.root);
        const answer = await app.service.invoke(localPrincipal(local, app.deps.config.submitType ?? null), { action, input: parsed, projectId: local.projectId });
        printJson(answer.result);
      });
    });
}
