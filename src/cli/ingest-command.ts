import { Command } from "commander";
import { ensureLocalProject } from "../access/local-project.js";
import { syncFolder } from "../ingest/folder/folder-sync.js";
import type { SyncSummary } from "../ingest/folder/folder-sync.js";
import { loadRootConfig, printJson, withApp, withStoreOptions } from "./store-options.js";
import { formatSummary, progressView } from "./sync-report.js";

/**
 * `pks ingest [DIR]`: reads a folder into its project (new and changed
 * files read, missing ones retired) and waits until reading is done.
 * Refused files are listed and do not fail the command.
 */
export function ingestCommand(): Command {
  return withStoreOptions(new Command("ingest").description("read a folder into its project and wait until it is read"))
    .argument("[dir]", "the folder (default: --root, or the current folder)")
    .option("--json", "print the summary as JSON on stdout")
    .action(async (dir: string | undefined, o) => {
      const flags = { ...o, root: dir ?? o.root };
      const config = loadRootConfig(flags);
      await withApp(
        flags,
        async (app) => {
          const local = await ensureLocalProject(app.deps.db, config.root);
          const progress = progressView(process.stderr, { quiet: Boolean(o.json) });
          let summary: SyncSummary;
          try {
            summary = await syncFolder(app, local.projectId, config.root, { onProgress: (p) => progress.update(p) });
          } finally {
            progress.end();
          }
          if (o.json) printJson({ root: config.root, projectId: local.projectId, ...summary });
          else process.stdout.write(formatSummary(config.root, local.projectId, summary));
        },
        { worker: true },
      );
    });
}
