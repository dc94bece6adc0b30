/**
 * Makes the pks host of the ingest benchmark runnable without a loader:
 * its few bench files are transpiled (TypeScript's `transpileModule`) into
 * a folder of plain ES modules whose pks imports point at the compiled
 * build (`dist/src`). So the measured process holds what `pks serve` holds,
 * not tsx's loader and its transpiled copies (about 50–65 MB of RSS with
 * the app open, measured here).
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import ts from "typescript";

const HOST_FILES = ["ingest-host", "edit-lines", "proc-memory", "ingest-plan"];

/** Writes the host into `outDir` with pks imports bound to `distSrc`; answers the entry's path. */
export function compileHost(outDir: string, distSrc: string): string {
  mkdirSync(outDir, { recursive: true });
  writeFileSync(join(outDir, "package.json"), '{ "type": "module" }\n');
  const pks = pathToFileURL(distSrc).href;
  for (const name of HOST_FILES) {
    const source = readFileSync(new URL(`./${name}.ts`, import.meta.url), "utf8");
    const { outputText } = ts.transpileModule(source, {
      compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022, verbatimModuleSyntax: true },
      fileName: `${name}.ts`,
    });
    writeFileSync(join(outDir, `${name}.js`), outputText.replace(/(from\s+["'])\.\.\/\.\.\/src\//g, `$1${pks}/`));
  }
  return join(outDir, "ingest-host.js");
}
