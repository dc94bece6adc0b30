/**
 * Whether an offset sits on a `curl` command line, following shell line
 * continuations (`\`, PowerShell `` ` ``, cmd `^`) back to the `curl` word.
 */
import { lastBefore } from "../../text/sorted-offsets.js";
import type { ScanText } from "./secret-rule.js";

const CURL_WORD = /(?<![A-Za-z0-9_-])curl(?![A-Za-z0-9_-])/gi;
/** A logical command line is never followed further back than this. */
const MAX_COMMAND_LENGTH = 16 * 1024;

interface CurlIndex {
  /** Offsets of the word `curl`, ascending. */
  curls: number[];
  /** Offsets of newlines that end a logical line (not a continuation), ascending. */
  breaks: number[];
}

function buildIndex(text: string): CurlIndex {
  const curls: number[] = [];
  CURL_WORD.lastIndex = 0;
  for (let m = CURL_WORD.exec(text); m; m = CURL_WORD.exec(text)) curls.push(m.index);
  const breaks: number[] = [];
  if (curls.length === 0) return { curls, breaks };
  for (let nl = text.indexOf("\n"); nl >= 0; nl = text.indexOf("\n", nl + 1)) {
    let j = nl - 1;
    while (j >= 0 && (text[j] === "\r" || text[j] === " " || text[j] === "\t") && nl - j < 64) j--;
    const last = text[j];
    if (last !== "\\" && last !== "`" && last !== "^") breaks.push(nl);
  }
  return { curls, breaks };
}

/**
 * Whether `index` is part of a command that starts with the word `curl`:
 * a `curl` occurs before it on the same logical line (joined across
 * continuation backslashes), at most 16 Ki characters back.
 */
export function isInCurlCommand(scan: ScanText, index: number): boolean {
  const { curls, breaks } = scan.memo("curl-index", buildIndex);
  const curl = lastBefore(curls, index);
  if (curl < 0 || index - curl > MAX_COMMAND_LENGTH) return false;
  return lastBefore(breaks, index) < curl;
}
