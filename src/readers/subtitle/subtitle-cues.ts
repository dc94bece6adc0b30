/**
 * Cues of WebVTT and SubRip (SRT) subtitles: each block of lines with a
 * timing line ("00:01:02.500 --> 00:01:04.000") is a cue; header, NOTE,
 * STYLE and REGION blocks are not. Cue text is cleaned of markup, and
 * WebVTT voice spans (`<v Speaker>`) become "Speaker: " prefixes.
 */
import { htmlText } from "../markdown/markdown-inline.js";
import { collapseWhitespace } from "../common/sentences.js";
import { lineRuns } from "../text/text-blocks.js";

/** One cue: when it starts, the lines it spans (1-based, inclusive) and its text by speaker. */
export interface Cue {
  startMs: number;
  lineStart: number;
  lineEnd: number;
  /** The cue block as it stands in the file. */
  source: string;
  /** Consecutive lines of one speaker (or none) joined. */
  segments: { speaker?: string; text: string }[];
}

const TIME = String.raw`((?:\d+:)?\d{1,2}:\d{1,2}[.,]\d{1,3})`;
const TIMING = new RegExp(String.raw`^\s*${TIME}\s*-->\s*${TIME}`);
const NOT_CUES = /^(?:WEBVTT|NOTE|STYLE|REGION)(?:\s|$)/;
const VOICE = /<v(?:\.[^\s>]*)?\s+([^>]+)>/;
/** WebVTT karaoke timestamps inside a cue, `<00:00:01.500>`. */
const INNER_TIMESTAMP = /<\d[\d:.]*>/g;
/** SSA/ASS override codes that some SRT files carry, `{\an8}`. */
const ASS_OVERRIDE = /\{\\[^}]*\}/g;

/** Milliseconds of "hh:mm:ss.ttt", "mm:ss,t" …; a fraction of one or two digits is tenths or hundredths. */
export function timestampMs(stamp: string): number {
  const [clock = "", fraction = ""] = stamp.split(/[.,]/);
  const seconds = clock.split(":").reduce((total, part) => total * 60 + Number(part), 0);
  return seconds * 1000 + Math.round(Number(`0.${fraction || "0"}`) * 1000);
}

function cleanLine(line: string): { speaker?: string; text: string } {
  const speaker = VOICE.exec(line)?.[1]?.trim();
  const text = collapseWhitespace(htmlText(line.replace(INNER_TIMESTAMP, "").replace(ASS_OVERRIDE, "")));
  return speaker === undefined || speaker.length === 0 ? { text } : { speaker: collapseWhitespace(htmlText(speaker)), text };
}

/** A line opening with a dash is a new speaker's turn (the SRT convention for dialogue). */
const DIALOGUE_DASH = /^[-\u2013\u2014]\s+/;

/** Lines grouped by speaker; a line without a voice or dash continues the current turn. */
function segmentsOf(lines: readonly string[]): Cue["segments"] {
  const segments: Cue["segments"] = [];
  let speaker: string | undefined;
  for (const line of lines) {
    const cleaned = cleanLine(line);
    if (cleaned.speaker !== undefined) speaker = cleaned.speaker;
    const turn = DIALOGUE_DASH.test(cleaned.text);
    cleaned.text = cleaned.text.replace(DIALOGUE_DASH, "");
    if (cleaned.text.length === 0) continue;
    const last = segments.at(-1);
    if (last !== undefined && last.speaker === speaker && !turn) last.text += ` ${cleaned.text}`;
    else segments.push(speaker === undefined ? { text: cleaned.text } : { speaker, text: cleaned.text });
  }
  return segments;
}

/** The cues of subtitle text (LF line breaks), in file order. */
export function subtitleCues(text: string): Cue[] {
  const cues: Cue[] = [];
  for (const run of lineRuns(text)) {
    if (NOT_CUES.test(run.lines[0] ?? "")) continue;
    // The timing line comes first, or after a cue identifier (VTT) or number (SRT).
    const at = run.lines.slice(0, 2).findIndex((line) => TIMING.test(line));
    const timing = at < 0 ? undefined : TIMING.exec(run.lines[at] ?? "");
    if (timing?.[1] === undefined) continue;
    cues.push({
      startMs: timestampMs(timing[1]),
      lineStart: run.lineStart,
      lineEnd: run.lineStart + run.lines.length - 1,
      source: run.lines.join("\n"),
      segments: segmentsOf(run.lines.slice(at + 1)),
    });
  }
  return cues;
}
