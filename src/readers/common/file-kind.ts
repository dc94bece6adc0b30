/**
 * How readers recognise a file: the bare media type of its declared
 * content type, its extension and its base name.
 */

/** The media type without parameters, lower-cased: `text/csv; charset=x` → `text/csv`. */
export function mediaTypeOf(contentType: string): string {
  return contentType.split(";")[0]?.trim().toLowerCase() ?? "";
}

/** The base name of a POSIX path, lower-cased. */
export function baseNameOf(path: string): string {
  return path.slice(path.lastIndexOf("/") + 1).toLowerCase();
}

/** The extension with its dot, lower-cased (`.csv`), or "" for none or a dot file. */
export function extensionOf(path: string): string {
  const name = baseNameOf(path);
  const dot = name.lastIndexOf(".");
  return dot > 0 ? name.slice(dot) : "";
}

/** Whether the file has one of `extensions` or one of `mediaTypes`. */
export function matchesKind(
  input: { path: string; contentType: string },
  extensions: readonly string[],
  mediaTypes: ReadonlySet<string>,
): boolean {
  return extensions.includes(extensionOf(input.path)) || mediaTypes.has(mediaTypeOf(input.contentType));
}
