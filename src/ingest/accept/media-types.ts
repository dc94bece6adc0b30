import { splitPath } from "../../graph/file-resource.js";
import { decodeCleanText } from "../../text/decode-text.js";
import { lookupTable } from "../../lookup.js";

/** File families (DECISIONS.md). */
export type FileType = "code" | "document" | "data" | "config" | "pdf" | "media" | "binary";

interface Family {
  type: FileType;
  contentType: string;
}

const code = (contentType: string): Family => ({ type: "code", contentType });
const doc = (contentType: string): Family => ({ type: "document", contentType });
const data = (contentType: string): Family => ({ type: "data", contentType });
const config = (contentType: string): Family => ({ type: "config", contentType });
const media = (contentType: string): Family => ({ type: "media", contentType });
const binary = (contentType: string): Family => ({ type: "binary", contentType });

/** Extension → family and media type. */
const BY_EXTENSION = lookupTable<Family>({
  ts: code("text/x-typescript"), mts: code("text/x-typescript"), cts: code("text/x-typescript"),
  tsx: code("text/x-tsx"), js: code("text/javascript"), mjs: code("text/javascript"), cjs: code("text/javascript"),
  jsx: code("text/jsx"), py: code("text/x-python"), pyi: code("text/x-python"), go: code("text/x-go"),
  rs: code("text/x-rust"), java: code("text/x-java"), c: code("text/x-c"), h: code("text/x-c"),
  cc: code("text/x-c++"), cpp: code("text/x-c++"), cxx: code("text/x-c++"), hpp: code("text/x-c++"), hh: code("text/x-c++"),
  cs: code("text/x-csharp"), rb: code("text/x-ruby"), php: code("text/x-php"), sh: code("text/x-shellscript"),
  bash: code("text/x-shellscript"), zsh: code("text/x-shellscript"), kt: code("text/x-kotlin"), swift: code("text/x-swift"),
  kts: code("text/x-kotlin"), scala: code("text/x-scala"), sc: code("text/x-scala"), lua: code("text/x-lua"),
  hs: code("text/x-haskell"), lhs: code("text/x-haskell"), ex: code("text/x-elixir"), exs: code("text/x-elixir"),
  zig: code("text/x-zig"), sql: code("application/sql"), css: code("text/css"),
  scss: code("text/x-scss"), vue: code("text/x-vue"), svelte: code("text/x-svelte"),
  md: doc("text/markdown"), markdown: doc("text/markdown"), mdx: doc("text/markdown"), txt: doc("text/plain"),
  text: doc("text/plain"), rst: doc("text/x-rst"), log: doc("text/plain"), html: doc("text/html"), htm: doc("text/html"),
  docx: doc("application/vnd.openxmlformats-officedocument.wordprocessingml.document"),
  vtt: doc("text/vtt"), srt: doc("application/x-subrip"),
  pdf: { type: "pdf", contentType: "application/pdf" },
  csv: data("text/csv"), tsv: data("text/tab-separated-values"), jsonl: data("application/x-ndjson"),
  json: config("application/json"), yaml: config("application/yaml"), yml: config("application/yaml"),
  toml: config("application/toml"), ini: config("text/plain"), cfg: config("text/plain"), conf: config("text/plain"),
  xml: config("application/xml"), env: config("text/plain"),
  png: media("image/png"), jpg: media("image/jpeg"), jpeg: media("image/jpeg"), gif: media("image/gif"),
  webp: media("image/webp"), svg: media("image/svg+xml"), ico: media("image/x-icon"), mp3: media("audio/mpeg"),
  wav: media("audio/wav"), ogg: media("audio/ogg"), flac: media("audio/flac"), m4a: media("audio/mp4"),
  mp4: media("video/mp4"), mov: media("video/quicktime"), webm: media("video/webm"), mkv: media("video/x-matroska"),
  avi: media("video/x-msvideo"),
  zip: binary("application/zip"), gz: binary("application/gzip"), tar: binary("application/x-tar"),
  tgz: binary("application/gzip"), "7z": binary("application/x-7z-compressed"), wasm: binary("application/wasm"),
  exe: binary("application/octet-stream"), dll: binary("application/octet-stream"), so: binary("application/octet-stream"),
  bin: binary("application/octet-stream"), woff: binary("font/woff"), woff2: binary("font/woff2"), ttf: binary("font/ttf"),
  db: binary("application/octet-stream"), sqlite: binary("application/vnd.sqlite3"),
});

/** Well-known names with no telling extension. */
const BY_NAME = lookupTable<Family>({
  dockerfile: code("text/x-dockerfile"), makefile: code("text/x-makefile"), license: doc("text/plain"),
  readme: doc("text/plain"), changelog: doc("text/plain"),
});

/** The media type a path defaults to when the caller gives none. */
export function defaultContentType(path: string): string {
  return familyOf(path)?.contentType ?? "application/octet-stream";
}

/**
 * The file family, from the extension, then the declared media type, then
 * the bytes (text that decodes as UTF-8 is a document, anything else binary).
 */
export function classifyFile(path: string, contentType: string, bytes: Uint8Array): FileType {
  const known = familyOf(path);
  if (known) return known.type;
  const ct = contentType.toLowerCase();
  if (ct.startsWith("image/") || ct.startsWith("audio/") || ct.startsWith("video/")) return "media";
  if (ct === "application/pdf") return "pdf";
  if (ct.startsWith("text/")) return "document";
  // The one text rule the readers and the secret scan use: a file with no telling name is a document only if it decodes cleanly.
  return decodeCleanText(bytes) !== undefined ? "document" : "binary";
}

/** Families whose content can be replaced through `PUT .../content`. */
export function isEditable(fileType: FileType): boolean {
  return fileType !== "media" && fileType !== "binary";
}

function familyOf(path: string): Family | undefined {
  const { name, ext } = splitPath(path);
  return (ext ? BY_EXTENSION[ext] : undefined) ?? BY_NAME[name.toLowerCase()];
}
