/**
 * Subtitles (WebVTT, SRT): one `media_segment` faction per cue, located by
 * its lines and by `audioStartMs` = `videoStartMs` = the cue's start (the
 * same timeline for sound and picture). A cue at 0 ms is reported at 1 ms:
 * location keys are never zero, and a millisecond is below any subtitle's
 * precision. Cells are the sentences of the cue, each prefixed with its
 * speaker when the cue names one.
 */
import { DocumentBuilder } from "../common/document-builder.js";
import { extensionOf, matchesKind, mediaTypeOf } from "../common/file-kind.js";
import type { Reader, ReaderInput, ReadOutput } from "../reader.js";
import { readableText } from "../common/refusals.js";
import { capCellText, splitSentences } from "../common/sentences.js";
import type { Cue } from "./subtitle-cues.js";
import { subtitleCues } from "./subtitle-cues.js";

const SRT_TYPES = new Set(["application/x-subrip", "text/srt", "application/srt"]);
const SUBTITLE_TYPES = new Set(["text/vtt", ...SRT_TYPES]);
const SUBTITLE_EXTENSIONS = [".vtt", ".srt"];

function inferredTypeOf(input: ReaderInput): string {
  const srt = extensionOf(input.path) === ".srt" || SRT_TYPES.has(mediaTypeOf(input.contentType));
  return srt ? "application/x-subrip" : "text/vtt";
}

function cueCells(cue: Cue): string[] {
  return cue.segments.flatMap((segment) => {
    const sentences = splitSentences(segment.text);
    return segment.speaker === undefined ? sentences : sentences.flatMap((s) => capCellText(`${segment.speaker}: ${s}`));
  });
}

function readSubtitles(input: ReaderInput): ReadOutput {
  const inferredType = inferredTypeOf(input);
  const builder = new DocumentBuilder();
  // Bytes that are not text (a NUL) give no cues, as the secret scan skipped them.
  for (const cue of subtitleCues(readableText(input.bytes) ?? "")) {
    const ms = Math.max(1, cue.startMs);
    const location = { lineStart: cue.lineStart, lineEnd: cue.lineEnd, audioStartMs: ms, videoStartMs: ms };
    builder.block({ factionType: "media_segment", inferredType, location, text: cue.source }, cueCells(cue));
  }
  return builder.finish();
}

/** Reader for WebVTT and SRT subtitle files (`.vtt`, `.srt`). */
export const subtitleReader: Reader = {
  name: "subtitles",
  accepts: (input) => matchesKind(input, SUBTITLE_EXTENSIONS, SUBTITLE_TYPES),
  read: readSubtitles,
};
