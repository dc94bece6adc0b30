/**
 * One-line edits whose result a query can find: each puts a unique marker
 * word into text that pks indexes (a declaration's first doc sentence in
 * code, a prose sentence in Markdown), changing that one line only.
 */

/**
 * Lines of a code file that open a doc comment's text: the first text line
 * after a lone `/**`, or a one-line `/** … *\/`. A marker put at the start of
 * such a line lands in the declaration's first doc sentence, which is in the
 * declaration's cell. Answered in file order.
 */
export function docCommentLines(text: string): number[] {
  const lines = text.split("\n");
  const out: number[] = [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (/^\s*\/\*\*\s*$/.test(line) && /^\s*\*\s+[A-Za-z]/.test(lines[i + 1] ?? "")) out.push(i + 1);
    else if (/^\s*\/\*\*\s+[A-Za-z].*\*\/\s*$/.test(line)) out.push(i);
  }
  return out;
}

/** The code text with `marker` put at the start of the doc text on line `at`. */
export function editDocLine(text: string, at: number, marker: string): string {
  const lines = text.split("\n");
  lines[at] = lines[at]!.replace(/^(\s*(?:\/\*\*|\*)\s+)/, `$1${marker} `);
  return lines.join("\n");
}

/** A prose line of a Markdown text to edit: outside fences and front matter, in the middle of the document; -1 if none. */
export function proseLine(text: string): number {
  const lines = text.split("\n");
  let fenced = false;
  const prose: number[] = [];
  for (const [i, line] of lines.entries()) {
    if (/^\s*(```|~~~)/.test(line)) fenced = !fenced;
    else if (!fenced && /^[A-Za-z][^|<>`]*[A-Za-z0-9.,)]$/.test(line.trim()) && line.length > 20 && !/^\s{4}/.test(line)) prose.push(i);
  }
  if (lines[0]?.trim() === "---") return prose.find((i) => i > lines.indexOf("---", 1)) ?? -1;
  return prose.length === 0 ? -1 : prose[Math.floor(prose.length / 2)]!;
}

/** The Markdown text with one sentence carrying `marker` added to prose line `at`. */
export function editProseLine(text: string, at: number, marker: string): string {
  const lines = text.split("\n");
  const line = lines[at]!.replace(/\s+$/, "");
  lines[at] = `${line}${/[.!?]$/.test(line) ? "" : "."} The benchmark marker ${marker} was added here.`;
  return lines.join("\n");
}

export function lineCount(text: string): number {
  return text.split("\n").length - (text.endsWith("\n") ? 1 : 0);
}
