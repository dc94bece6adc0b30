/**
 * A PDF's streams measured before pdf.js opens the file: pdf.js decodes a
 * stream whole, with no cap, so a 1 MB file whose page content inflates to
 * 1 GB once held it 90 seconds and 2.2 GB. Every stream that text
 * extraction may decode (all but images) is decoded here through its
 * filters with a cap per stream and a running cap over the file, and
 * refused past either before pdf.js sees it.
 *
 * Images are skipped (text extraction never decodes them, and scans or
 * screenshots would pass any cap) unless a page names one as its content.
 * A stream that several pages name as content counts once per page.
 * Streams of an encrypted file cannot be measured without decrypting
 * them, and read as damaged (nothing decoded).
 */
import { decodeFilter } from "./pdf-filters.js";
import { inflatesTooFar } from "../common/refusals.js";

const MIB = 1024 * 1024;

/**
 * Decoded bytes allowed for one stream. Page content of text documents
 * takes kilobytes, embedded fonts a few megabytes; detailed maps and
 * drawings reach tens of megabytes.
 */
export const MAX_PDF_STREAM_BYTES = 64 * MIB;

/** Decoded bytes allowed over all streams of a file (images aside): four streams at the cap. */
export const MAX_PDF_DECODED_BYTES = 256 * MIB;

/** How far before a `stream` keyword its dictionary is looked for. */
const DICTIONARY_WINDOW = 16 * 1024;

/** A stream: the object it belongs to, its dictionary's text and its raw bytes. */
interface PdfStream {
  object?: number;
  dictionary: string;
  data: Uint8Array;
}

const OBJECT_HEADER = /(\d+)\s+\d+\s+obj\b/g;

/** The dictionary text before `stream` at `at` (from its object's header), or undefined when none ends there. */
function dictionaryBefore(bytes: Buffer, at: number, floor: number): { object?: number; dictionary: string } | undefined {
  const head = bytes.toString("latin1", Math.max(floor, at - DICTIONARY_WINDOW), at);
  if (!head.trimEnd().endsWith(">>")) return undefined;
  let last: RegExpExecArray | undefined;
  for (const match of head.matchAll(OBJECT_HEADER)) last = match;
  if (last === undefined) return { dictionary: head };
  return { object: Number(last[1]), dictionary: head.slice(last.index) };
}

/** Where the data starting at `start` ends: by a direct `/Length` when `endstream` follows it, else at `endstream`. */
function dataEnd(bytes: Buffer, start: number, dictionary: string): number {
  const length = /\/Length\s+(\d+)(?!\s+\d+\s+R)/.exec(dictionary);
  if (length !== null) {
    const end = start + Number(length[1]);
    const after = bytes.toString("latin1", end, Math.min(bytes.length, end + 12));
    if (end <= bytes.length && /^\s*endstream/.test(after)) return end;
  }
  const keyword = bytes.indexOf("endstream", start, "latin1");
  return keyword < 0 ? bytes.length : keyword;
}

/** Every stream of the file, in order; one linear pass. */
function* pdfStreams(bytes: Buffer): Generator<PdfStream> {
  let floor = 0;
  let from = 0;
  for (let at = bytes.indexOf("stream", 0, "latin1"); at >= 0; at = bytes.indexOf("stream", from, "latin1")) {
    from = at + 6;
    let start = at + 6;
    if (bytes[start] === 0x0d) start++;
    if (bytes[start] === 0x0a) start++;
    const found = start > at + 6 ? dictionaryBefore(bytes, at, floor) : undefined;
    if (found === undefined) continue;
    const end = dataEnd(bytes, start, found.dictionary);
    yield { ...found, data: bytes.subarray(start, end) };
    floor = from = Math.max(from, end);
  }
}

/** The filters a stream's dictionary names, in order. */
function filtersOf(dictionary: string): string[] {
  const filter = /\/Filter\s*(\[[^\]]*\]|\/[^\s/[\]<>()]+)/.exec(dictionary)?.[1] ?? "";
  return [...filter.matchAll(/\/([^\s/[\]<>()]+)/g)].map((m) => m[1] ?? "");
}

/** Counts the objects each `/Contents` entry in `bytes` names (a page's content streams). */
function countContentRefs(bytes: Buffer, refs: Map<number, number>): void {
  for (let at = bytes.indexOf("/Contents", 0, "latin1"); at >= 0; ) {
    let start = at + 9;
    while (start < bytes.length && (bytes[start] ?? 0) <= 0x20) start++;
    const isArray = bytes[start] === 0x5b;
    const close = isArray ? bytes.indexOf("]", start, "latin1") : -1;
    const end = isArray ? (close < 0 ? bytes.length : close) : Math.min(bytes.length, start + 32);
    const text = bytes.toString("latin1", start, end);
    for (const ref of isArray ? text.matchAll(/(\d+)\s+\d+\s+R/g) : [/^(\d+)\s+\d+\s+R/.exec(text)]) {
      if (ref) refs.set(Number(ref[1]), (refs.get(Number(ref[1])) ?? 0) + 1);
    }
    at = bytes.indexOf("/Contents", isArray ? end : start, "latin1");
  }
}

const FLATE = new Set(["FlateDecode", "Fl"]);

/**
 * The stream decoded through its filters within `cap`; undefined when it
 * goes past the cap. Throws for a damaged Flate stage feeding another:
 * pdf.js then hands the next stage nothing, and waits on it forever.
 */
async function decodeStream(stream: PdfStream, cap: number): Promise<Uint8Array | undefined> {
  const earlyChange = /\/EarlyChange\s+0\b/.test(stream.dictionary) ? 0 : 1;
  const filters = filtersOf(stream.dictionary);
  let data = stream.data;
  for (const [i, name] of filters.entries()) {
    const decoded = await decodeFilter(name, data, cap, earlyChange);
    if (decoded === undefined) break;
    if (decoded.overflow) return undefined;
    if (decoded.damaged === true && FLATE.has(name) && FLATE.has(filters[i + 1] ?? "")) {
      throw new Error("PDF could not be read: a stream compressed twice is damaged");
    }
    data = decoded.data;
  }
  return data;
}

/** Running totals of a scan. */
interface Tally {
  decoded: number;
  /** Decoded size of each stream object, to weigh by how many pages name it. */
  sizes: Map<number, number>;
}

/** Decodes one filtered stream within both caps, adding its size to the tally. */
async function measure(stream: PdfStream, tally: Tally): Promise<Uint8Array> {
  const left = MAX_PDF_DECODED_BYTES - tally.decoded;
  const cap = Math.min(MAX_PDF_STREAM_BYTES, left);
  const data = await decodeStream(stream, cap);
  if (data === undefined) throw inflatesTooFar(cap < MAX_PDF_STREAM_BYTES ? MAX_PDF_DECODED_BYTES : MAX_PDF_STREAM_BYTES);
  tally.decoded += data.length;
  if (stream.object !== undefined) tally.sizes.set(stream.object, data.length);
  return data;
}

/**
 * Throws "document inflates past N MiB" when a stream of the PDF in
 * `bytes` would decode past {@link MAX_PDF_STREAM_BYTES}, or all of them
 * together (a page's content counted once per page naming it) past
 * {@link MAX_PDF_DECODED_BYTES}. Decodes no more than those caps.
 */
export async function checkPdfStreams(bytes: Uint8Array): Promise<void> {
  const file = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const tally: Tally = { decoded: 0, sizes: new Map() };
  const refs = new Map<number, number>();
  const images: PdfStream[] = [];
  countContentRefs(file, refs);
  for (const stream of pdfStreams(file)) {
    if (filtersOf(stream.dictionary).length === 0) continue;
    if (/\/Subtype\s*\/Image\b/.test(stream.dictionary)) images.push(stream);
    else {
      const data = await measure(stream, tally);
      if (/\/Type\s*\/ObjStm\b/.test(stream.dictionary)) countContentRefs(Buffer.from(data.buffer, data.byteOffset, data.length), refs);
    }
  }
  for (const image of images) if (image.object !== undefined && refs.has(image.object)) await measure(image, tally);
  let weighed = tally.decoded;
  for (const [object, size] of tally.sizes) weighed += size * Math.max(0, (refs.get(object) ?? 1) - 1);
  if (weighed > MAX_PDF_DECODED_BYTES) throw inflatesTooFar(MAX_PDF_DECODED_BYTES);
}
