/**
 * ZIP archives read without trusting them: entries are listed from the
 * central directory, and inflated here with a running cap on the bytes
 * they actually produce, never on the sizes they declare (an entry
 * declaring 1 KB may inflate to 300 MB). What passes can be written back
 * as an uncompressed archive, so a parser handed it has nothing left to
 * inflate.
 */
import { inflateRawSync } from "node:zlib";
import { inflatesTooFar } from "./refusals.js";

/** One entry, as the central directory describes it. */
export interface ZipEntry {
  name: string;
  /** 0 stored, 8 deflated; anything else is refused when inflated. */
  method: number;
  encrypted: boolean;
  compressedSize: number;
  /** Where the entry's local header starts. */
  localOffset: number;
}

/** A running cap on inflated bytes, shared by the entries of one archive. */
export interface InflateBudget {
  /** Bytes that may still be produced. */
  left: number;
  /** The cap it started from (for the refusal's message). */
  readonly limit: number;
}

const END_SIGNATURE = 0x06054b50;
const ENTRY_SIGNATURE = 0x02014b50;
const LOCAL_SIGNATURE = 0x04034b50;
const END_RECORD_BYTES = 22;
/** The end record sits within the last 64 KiB (its comment) plus its own size. */
const END_SEARCH_BYTES = 0xffff + END_RECORD_BYTES;
const ZIP64_MARK = 0xffffffff;

function viewOf(bytes: Uint8Array): DataView {
  return new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

function endRecordAt(view: DataView): number | undefined {
  const floor = Math.max(0, view.byteLength - END_SEARCH_BYTES);
  for (let at = view.byteLength - END_RECORD_BYTES; at >= floor; at--) {
    if (view.getUint32(at, true) === END_SIGNATURE) return at;
  }
  return undefined;
}

/**
 * The entries of a ZIP archive, or undefined when the bytes hold no
 * readable central directory (not a ZIP archive). ZIP64 archives, made
 * only for contents past 4 GiB, are refused as inflating too far.
 */
export function zipEntries(bytes: Uint8Array, budget: InflateBudget): ZipEntry[] | undefined {
  const view = viewOf(bytes);
  const end = endRecordAt(view);
  if (end === undefined) return undefined;
  const count = view.getUint16(end + 10, true);
  let at = view.getUint32(end + 16, true);
  if (at === ZIP64_MARK) throw inflatesTooFar(budget.limit);
  const entries: ZipEntry[] = [];
  const names = new TextDecoder();
  for (let i = 0; i < count; i++) {
    if (at + 46 > view.byteLength || view.getUint32(at, true) !== ENTRY_SIGNATURE) return undefined;
    const nameLength = view.getUint16(at + 28, true);
    const compressedSize = view.getUint32(at + 20, true);
    const localOffset = view.getUint32(at + 42, true);
    if (compressedSize === ZIP64_MARK || localOffset === ZIP64_MARK || view.getUint32(at + 24, true) === ZIP64_MARK) {
      throw inflatesTooFar(budget.limit);
    }
    entries.push({
      name: names.decode(bytes.subarray(at + 46, at + 46 + nameLength)),
      method: view.getUint16(at + 10, true),
      encrypted: (view.getUint16(at + 8, true) & 1) === 1,
      compressedSize,
      localOffset,
    });
    at += 46 + nameLength + view.getUint16(at + 30, true) + view.getUint16(at + 32, true);
  }
  return entries;
}

/** The entry's bytes as they sit in the archive (its local header skipped). */
function rawData(bytes: Uint8Array, entry: ZipEntry): Uint8Array {
  const view = viewOf(bytes);
  const at = entry.localOffset;
  if (at + 30 > view.byteLength || view.getUint32(at, true) !== LOCAL_SIGNATURE) {
    throw new Error("an entry has no local header");
  }
  const start = at + 30 + view.getUint16(at + 26, true) + view.getUint16(at + 28, true);
  return bytes.subarray(start, Math.min(view.byteLength, start + entry.compressedSize));
}

/**
 * The entry's content, inflated within what `budget` has left (which it
 * then spends). Throws "document inflates past N MiB" as soon as the
 * output passes the budget, having produced no more than that; throws for
 * encrypted entries, unknown methods and corrupt data.
 */
export function inflateEntry(bytes: Uint8Array, entry: ZipEntry, budget: InflateBudget): Uint8Array {
  if (entry.encrypted) throw new Error("the archive is encrypted");
  const raw = rawData(bytes, entry);
  let data: Uint8Array;
  if (entry.method === 0) data = raw;
  else if (entry.method === 8) {
    try {
      data = inflateRawSync(raw, { maxOutputLength: Math.max(1, budget.left) });
    } catch (err) {
      if ((err as { code?: string }).code === "ERR_BUFFER_TOO_LARGE") throw inflatesTooFar(budget.limit);
      throw err;
    }
  } else throw new Error(`unsupported compression method ${entry.method}`);
  if (data.length > budget.left) throw inflatesTooFar(budget.limit);
  budget.left -= data.length;
  return data;
}

const CRC_TABLE = Uint32Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(data: Uint8Array): number {
  let crc = 0xffffffff;
  for (let i = 0; i < data.length; i++) crc = (CRC_TABLE[(crc ^ (data[i] ?? 0)) & 0xff] ?? 0) ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

/** Header fields local and central records share, from "version needed" on. */
function commonFields(name: Uint8Array, data: Uint8Array): Uint8Array {
  const fields = new Uint8Array(26);
  const view = viewOf(fields);
  view.setUint16(0, 20, true);
  view.setUint16(2, 0x0800, true); // names are UTF-8
  view.setUint32(10, crc32(data), true);
  view.setUint32(14, data.length, true);
  view.setUint32(18, data.length, true);
  view.setUint16(22, name.length, true);
  return fields;
}

function record(signature: number, size: number): Uint8Array {
  const out = new Uint8Array(size);
  viewOf(out).setUint32(0, signature, true);
  return out;
}

/** An uncompressed ZIP archive of `entries` (name → content), for a parser that should inflate nothing. */
export function storedZip(entries: ReadonlyMap<string, Uint8Array>): Uint8Array {
  const parts: Uint8Array[] = [];
  const central: Uint8Array[] = [];
  let offset = 0;
  for (const [entryName, data] of entries) {
    const name = new TextEncoder().encode(entryName);
    const fields = commonFields(name, data);
    const head = record(ENTRY_SIGNATURE, 6);
    viewOf(head).setUint16(4, 20, true);
    const tail = new Uint8Array(14);
    viewOf(tail).setUint32(10, offset, true);
    central.push(head, fields, tail, name);
    parts.push(record(LOCAL_SIGNATURE, 4), fields, name, data);
    offset += 30 + name.length + data.length;
  }
  const directorySize = central.reduce((sum, part) => sum + part.length, 0);
  const end = record(END_SIGNATURE, END_RECORD_BYTES);
  const view = viewOf(end);
  view.setUint16(8, entries.size, true);
  view.setUint16(10, entries.size, true);
  view.setUint32(12, directorySize, true);
  view.setUint32(16, offset, true);
  return Buffer.concat([...parts, ...central, end]);
}
