import { readFile } from "node:fs/promises";
import { join } from "node:path";
import ignore from "ignore";
import type { Ignore } from "ignore";
import { NEVER_READ_FOLDERS } from "../accept/normalize-path.js";

/** Folders never synced, whatever any ignore file says: version control and pks's own store. */
const NEVER = NEVER_READ_FOLDERS;

/** Files whose change alters the rules themselves. */
export const RULE_FILES = new Set([".gitignore", ".pksignore"]);

/**
 * Excluded unless an ignore file takes one back with `!`: dependencies,
 * build output, caches, OS litter, compiled objects, database files (a
 * database inside the folder would otherwise read its own writes), and the
 * swap, backup and temporary files editors write next to the file being saved.
 */
export const DEFAULT_EXCLUDES: readonly string[] = [
  "node_modules/", "bower_components/", "jspm_packages/", "dist/", "build/", "out/", "target/", "coverage/",
  ".nyc_output/", ".next/", ".nuxt/", ".svelte-kit/", ".turbo/", ".parcel-cache/", ".cache/", ".vercel/",
  ".angular/", ".venv/", "venv/", "__pycache__/", ".pytest_cache/", ".mypy_cache/", ".ruff_cache/", ".tox/",
  "*.egg-info/", ".gradle/", ".idea/", ".terraform/",
  ".DS_Store", "Thumbs.db", "desktop.ini", "*.pyc", "*.pyo", "*.class", "*.o", "*.obj",
  "*.min.js", "*.min.css", "*.js.map", "*.css.map",
  "*.db", "*.db-wal", "*.db-shm", "*.db-journal", "*.sqlite", "*.sqlite3", "*.sqlite-wal", "*.sqlite-shm",
  "*.swp", "*.swo", "*.swx", "*~", ".#*", "\\#*#", "*___jb_tmp___", "*___jb_old___", "*.crswap",
];

/** True when a segment of the path is a folder that is never synced. */
export function isNeverSynced(path: string): boolean {
  return path.split("/").some((segment) => NEVER.has(segment));
}

/**
 * The exclusion rules of one folder: the defaults, `.git/info/exclude`, and
 * every `.gitignore` and `.pksignore` on the way down, each relative to its
 * own folder, deeper files taking precedence as in git. A folder's rules are
 * read the first time a path in it is tested and kept; a changed ignore file
 * needs a new `FolderRules`.
 */
export class FolderRules {
  readonly #root: string;
  readonly #byDir = new Map<string, Promise<Ignore>>();
  readonly #present = new Map<string, ReadonlySet<string>>();
  // git folds case where the file system does.
  readonly #ignoreCase = process.platform === "darwin" || process.platform === "win32";

  constructor(root: string) {
    this.#root = root;
  }

  /** Tells which names a folder holds, so rule files it lacks are not looked for. */
  noteListing(dir: string, names: readonly string[]): void {
    this.#present.set(dir, new Set(names.filter((name) => RULE_FILES.has(name))));
  }

  /** Whether a path (relative, POSIX) is left out; `isDir` for folders. */
  async excludes(path: string, isDir: boolean): Promise<boolean> {
    if (isNeverSynced(path)) return true;
    const rules = await this.#forDir(parentOf(path));
    try {
      return rules.ignores(isDir ? `${path}/` : path);
    } catch {
      return false;
    }
  }

  #forDir(dir: string): Promise<Ignore> {
    let rules = this.#byDir.get(dir);
    if (!rules) {
      rules = this.#build(dir);
      this.#byDir.set(dir, rules);
    }
    return rules;
  }

  async #build(dir: string): Promise<Ignore> {
    const abs = join(this.#root, dir);
    const present = this.#present.get(dir);
    const own: string[] = [];
    for (const name of RULE_FILES) {
      if (!present || present.has(name)) own.push(...(await readLines(join(abs, name))));
    }
    if (dir === "") {
      const exclude = await readLines(join(abs, ".git", "info", "exclude"));
      return ignore({ ignorecase: this.#ignoreCase }).add([...DEFAULT_EXCLUDES, ...exclude, ...own].join("\n"));
    }
    const inherited = await this.#forDir(parentOf(dir));
    if (own.length === 0) return inherited;
    const rebased = own.map((line) => rebaseRule(line, dir)).filter((line) => line !== "");
    return ignore({ ignorecase: this.#ignoreCase }).add(inherited).add(rebased.join("\n"));
  }
}

/**
 * A line of `DIR/.gitignore` restated relative to the root, so one rule set
 * holds every level and git's "last matching rule wins" orders them: a
 * pattern with a slash before its end is anchored to DIR, any other matches
 * at any depth below it. Blank lines and comments become "".
 */
export function rebaseRule(line: string, dir: string): string {
  if (dir === "") return line;
  const negative = line.startsWith("!");
  let body = negative ? line.slice(1) : line;
  const trimmed = body.replace(/(?<!\\)[ \t]+$/, "");
  if (trimmed === "" || line.startsWith("#")) return "";
  const anchored = trimmed.replace(/\/$/, "").includes("/");
  if (body.startsWith("/")) body = body.slice(1);
  return `${negative ? "!" : ""}${escapeGlob(dir)}/${anchored ? "" : "**/"}${body}`;
}

/** A folder path made literal inside a pattern. */
function escapeGlob(dir: string): string {
  return dir.replace(/[\\*?[\]]/g, "\\$&").replace(/^[!#]/, "\\$&");
}

function parentOf(path: string): string {
  const cut = path.lastIndexOf("/");
  return cut < 0 ? "" : path.slice(0, cut);
}

async function readLines(path: string): Promise<string[]> {
  try {
    const text = await readFile(path, "utf8");
    return text.replace(/^\uFEFF/, "").split(/\r?\n/);
  } catch {
    return [];
  }
}
