/**
 * Maps character offsets of a text to 1-based line numbers, for readers
 * whose parsers report offsets rather than lines.
 */
import type { SourceLocation } from "../reader.js";

/** Line lookup over one text (LF line breaks, as `decodeText` leaves them). */
export class LineIndex {
  /** Offset at which each line starts; line N starts at `starts[N - 1]`. */
  readonly #starts: number[] = [0];

  constructor(text: string) {
    for (let i = text.indexOf("\n"); i >= 0; i = text.indexOf("\n", i + 1)) this.#starts.push(i + 1);
  }

  /** Number of lines in the text (an empty text has one, empty, line). */
  get lineCount(): number {
    return this.#starts.length;
  }

  /** The 1-based line holding the character at `offset`. */
  lineOf(offset: number): number {
    let lo = 0;
    let hi = this.#starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if ((this.#starts[mid] ?? 0) <= offset) lo = mid;
      else hi = mid - 1;
    }
    return lo + 1;
  }

  /**
   * Lines of the characters `[start, end)`; an empty range sits on the line
   * of `start`.
   */
  span(start: number, end: number): Required<Pick<SourceLocation, "lineStart" | "lineEnd">> {
    const lineStart = this.lineOf(start);
    return { lineStart, lineEnd: end > start ? this.lineOf(end - 1) : lineStart };
  }
}
