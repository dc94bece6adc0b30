/**
 * Sentence splitting shared by the prose readers: ICU sentence boundaries,
 * corrected where ICU breaks after an abbreviation, with a cap on how long
 * one cell's text may grow.
 */

/**
 * Longest cell text, in UTF-16 code units. Longer text (a sentence with no
 * boundary, a minified blob, a run of one character) is cut at whitespace,
 * or hard-cut when there is none, so one cell never carries megabytes.
 */
export const MAX_CELL_CHARS = 2_000;

/**
 * V8's segmenter slows down with the length of the string it walks (over a
 * minute for 2 MB of prose in one piece), so text is segmented a window at a
 * time. A window holds a sentence at the cap plus the start of the next.
 */
const WINDOW_CHARS = MAX_CELL_CHARS + 1_000;

const segmenter = new Intl.Segmenter("en", { granularity: "sentence" });

/** Abbreviations that essentially never end a sentence. */
const ALWAYS_CONTINUE = new Set([
  "mr", "mrs", "ms", "mx", "dr", "prof", "st", "mt", "fr", "gen", "col",
  "capt", "lt", "sgt", "rev", "hon", "gov", "sen", "e.g", "i.e", "cf", "vs",
  "viz", "approx", "fig", "figs", "eq", "eqs", "vol", "ref", "resp",
]);

/** Abbreviations that continue the sentence when a number follows. */
const CONTINUE_BEFORE_NUMBER = new Set([
  "no", "nos", "p", "pp", "sec", "ch", "art", "al", "ver", "v",
]);

/** Collapses every run of whitespace to one space and trims. */
export function collapseWhitespace(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}

/**
 * Cuts text into pieces of at most {@link MAX_CELL_CHARS}, preferring to cut
 * at a space. Short text comes back as a single piece.
 */
export function capCellText(text: string): string[] {
  const pieces: string[] = [];
  let pos = 0;
  while (pos < text.length) {
    const tooLong = text.length - pos > MAX_CELL_CHARS;
    const cut = tooLong ? cutPoint(text, pos, pos + MAX_CELL_CHARS) : text.length;
    const piece = text.slice(pos, cut).trim();
    if (piece.length > 0) pieces.push(piece);
    pos = cut;
  }
  return pieces;
}

/**
 * Where to end a piece starting at `start` that may run up to `limit`: the
 * last space in the second half of the range, else `limit` itself. The scan
 * is bounded so a long run without spaces stays linear overall.
 */
function cutPoint(text: string, start: number, limit: number): number {
  const floor = start + Math.floor((limit - start) / 2);
  for (let i = limit; i > floor; i--) {
    if (text.charCodeAt(i) === 0x20) return i;
  }
  const code = text.charCodeAt(limit);
  // Never split a surrogate pair.
  return code >= 0xdc00 && code <= 0xdfff ? limit - 1 : limit;
}

/**
 * ICU sentence segments of collapsed text, a window at a time. The last
 * segment of a window may run past it, so the next window starts there; a
 * window with no boundary at all is cut like an over-long sentence.
 */
function rawSegments(text: string): string[] {
  const out: string[] = [];
  let pos = 0;
  while (pos < text.length) {
    const end = Math.min(text.length, pos + WINDOW_CHARS);
    let pending: Intl.SegmentData | undefined;
    for (const segment of segmenter.segment(text.slice(pos, end))) {
      if (pending !== undefined) out.push(pending.segment);
      pending = segment;
    }
    if (pending === undefined) break;
    if (end === text.length) {
      out.push(pending.segment);
      break;
    }
    if (pending.index > 0) {
      pos += pending.index;
    } else {
      const cut = cutPoint(text, pos, pos + MAX_CELL_CHARS);
      out.push(text.slice(pos, cut));
      pos = cut;
    }
  }
  return out;
}

/** The last word of a segment, or undefined for a segment of one word. */
function lastWords(segment: string): { last: string; before: string | undefined } {
  const space = segment.lastIndexOf(" ");
  const last = segment.slice(space + 1);
  if (space < 0) return { last, before: undefined };
  return { last, before: segment.slice(segment.lastIndexOf(" ", space - 1) + 1, space) };
}

/** A word lower-cased, without opening brackets or quotes and the final dot. */
function bareWord(word: string): string {
  return word.replace(/^[("'[{\u201c\u2018]+/, "").replace(/\.$/, "").toLowerCase();
}

function isInitial(word: string | undefined): boolean {
  return word !== undefined && /^[A-Z]\.$/.test(word);
}

/**
 * Whether ICU's boundary after the segments in `parts` (one sentence so
 * far) and before `next` is a false one.
 */
function continuesInto(parts: readonly string[], next: string): boolean {
  const prev = parts.at(-1) ?? "";
  if (!prev.endsWith(".")) return false;
  if (/^\p{Ll}/u.test(next)) return true;
  const { last, before } = lastWords(prev);
  const word = bareWord(last);
  if (ALWAYS_CONTINUE.has(word)) return true;
  if (CONTINUE_BEFORE_NUMBER.has(word) && /^\d/.test(next)) return true;
  // An initial ("J. R. R. Tolkien") opening the sentence or after another.
  const earlier = before ?? (parts.length > 1 ? lastWords(parts.at(-2) ?? "").last : undefined);
  return isInitial(last) && (earlier === undefined || isInitial(earlier));
}

/**
 * Joins segments split at false boundaries. A sentence already at the cap
 * is not extended: it would be cut again anyway, and this keeps runs such
 * as "A. B. C. …" linear.
 */
function mergeSegments(segments: readonly string[]): string[] {
  const sentences: string[] = [];
  let parts: string[] = [];
  let length = 0;
  for (const raw of segments) {
    const segment = raw.trim();
    if (segment.length === 0) continue;
    if (parts.length > 0 && length < MAX_CELL_CHARS && continuesInto(parts, segment)) {
      parts.push(segment);
      length += segment.length + 1;
      continue;
    }
    if (parts.length > 0) sentences.push(parts.join(" "));
    parts = [segment];
    length = segment.length;
  }
  if (parts.length > 0) sentences.push(parts.join(" "));
  return sentences;
}

/**
 * Splits prose into sentences: whitespace collapsed, empties dropped, splits
 * after common abbreviations ("Dr.", "e.g.", "Fig.", initials) undone, and
 * each sentence capped at {@link MAX_CELL_CHARS} (longer ones become several
 * pieces).
 */
export function splitSentences(text: string): string[] {
  return mergeSegments(rawSegments(collapseWhitespace(text))).flatMap(capCellText);
}
