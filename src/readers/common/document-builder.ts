/**
 * Assembles a reader's output while it walks a document top to bottom:
 * tracks the open headings so every faction gets its heading path and every
 * cell its parent heading cell.
 */
import type { FactionType, ReadCell, ReadFaction, ReadOutput, SourceLocation } from "../reader.js";

interface OpenHeading {
  level: number;
  text: string;
  /** Index of the heading's cell; absent when the heading has no text. */
  cell?: number;
}

/** A span to record: everything of a faction but its heading path. */
export interface BlockSpan {
  factionType: FactionType;
  inferredType: string;
  location: SourceLocation;
  text: string;
}

/** Builds a {@link ReadOutput} in document order. */
export class DocumentBuilder {
  readonly #factions: ReadFaction[] = [];
  readonly #cells: ReadCell[] = [];
  readonly #open: OpenHeading[] = [];

  /**
   * Records a heading of `level` (1 outermost): it closes headings at its
   * level or deeper, and its text (if any) becomes a cell whose parent is the
   * enclosing heading's cell.
   */
  heading(level: number, title: string, span: BlockSpan): void {
    while ((this.#open.at(-1)?.level ?? 0) >= level) this.#open.pop();
    const cell = this.block(span, [title]);
    this.#open.push(cell === undefined ? { level, text: title } : { level, text: title, cell });
  }

  /**
   * Records a non-heading span and its cells (already plain text; empty ones
   * are dropped); answers the index of the first cell added, if any.
   */
  block(span: BlockSpan, cellTexts: readonly string[]): number | undefined {
    const faction = this.#factions.length;
    this.#factions.push({ ...span, headingPath: this.#path() });
    const parent = this.#parentCell();
    const texts = cellTexts.filter((text) => text.length > 0);
    const first = texts.length > 0 ? this.#cells.length : undefined;
    for (const text of texts) {
      this.#cells.push(parent === undefined ? { faction, text } : { faction, text, parent });
    }
    return first;
  }

  /** The output so far. */
  finish(): ReadOutput {
    return { factions: this.#factions, cells: this.#cells };
  }

  #path(): string[] {
    return this.#open.map((h) => h.text).filter((t) => t.length > 0);
  }

  #parentCell(): number | undefined {
    for (let i = this.#open.length - 1; i >= 0; i--) {
      const cell = this.#open[i]?.cell;
      if (cell !== undefined) return cell;
    }
    return undefined;
  }
}
