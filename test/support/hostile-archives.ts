/**
 * Builders of compressed hostile inputs, cheap to make however far they
 * expand: deflate streams assembled from one repeated flushed segment (so
 * a 1 GB bomb costs one 1 MiB compression, not a gigabyte's), ZIP archives
 * whose entries may lie about their sizes, and PDFs around such streams.
 */
import { constants, deflateRawSync, deflateSync } from "node:zlib";

const MIB = 1024 * 1024;

/** How a repeated unit fills about `bytes`: one chunk of at most 1 MiB, repeated `count` times. */
function repeatPlan(unit: string, bytes: number): { chunk: string; count: number } {
  const chunk = unit.repeat(Math.max(1, Math.floor(Math.min(bytes, MIB) / unit.length)));
  return { chunk, count: Math.max(1, Math.round(bytes / chunk.length)) };
}

/** A deflated body and the exact size it inflates to. */
export interface Deflated {
  body: Buffer;
  size: number;
}

/**
 * A raw deflate stream of `prefix`, then `unit` repeated until about
 * `bytes` in total, then `suffix` (all Latin-1). Each part is flushed on
 * its own, so the repeated segment is compressed once and concatenated.
 */
export function deflateRepeated(unit: string, bytes: number, prefix = "", suffix = ""): Deflated {
  const { chunk, count } = repeatPlan(unit, bytes);
  const flush = { finishFlush: constants.Z_SYNC_FLUSH, level: 9 };
  const segment = deflateRawSync(Buffer.from(chunk, "latin1"), flush);
  const head = deflateRawSync(Buffer.from(prefix, "latin1"), flush);
  const tail = deflateRawSync(Buffer.from(suffix, "latin1"));
  const body = Buffer.concat([head, ...Array.from({ length: count }, () => segment), tail]);
  return { body, size: prefix.length + chunk.length * count + suffix.length };
}

/** Adler-32 of `count` copies of one byte, computed without the bytes. */
function adlerOfRepeated(byte: number, count: number): number {
  const mod = 65521n;
  const n = BigInt(count);
  const a = (1n + n * BigInt(byte)) % mod;
  const b = (n + (BigInt(byte) * n * (n + 1n)) / 2n) % mod;
  return Number((b << 16n) | a);
}

/** A zlib (RFC 1950) stream of about `bytes` copies of one ASCII character, as PDF's FlateDecode expects. */
export function zlibRepeated(char: string, bytes: number): Buffer {
  const { body, size } = deflateRepeated(char, bytes);
  const check = Buffer.alloc(4);
  check.writeUInt32BE(adlerOfRepeated(char.charCodeAt(0), size) >>> 0, 0);
  return Buffer.concat([Buffer.from([0x78, 0xda]), body, check]);
}

/** One entry of a hand-made archive: its body as stored, and what it declares. */
export interface RawZipEntry {
  name: string;
  /** The entry's bytes as they sit in the archive (already deflated for method 8). */
  body: Uint8Array;
  /** 0 stored, 8 deflated. */
  method: number;
  /** The uncompressed size the headers declare (true or not). */
  declaredSize: number;
}

function header(entry: RawZipEntry, name: Buffer): Buffer {
  const b = Buffer.alloc(26);
  b.writeUInt16LE(20, 0);
  b.writeUInt16LE(0x0800, 2);
  b.writeUInt16LE(entry.method, 4);
  b.writeUInt32LE(0, 10); // CRC: readers that do not check it are the point.
  b.writeUInt32LE(entry.body.length, 14);
  b.writeUInt32LE(entry.declaredSize >>> 0, 18);
  b.writeUInt16LE(name.length, 22);
  return b;
}

/** A ZIP archive of pre-compressed entries whose declared sizes may lie. */
export function rawZip(entries: readonly RawZipEntry[]): Uint8Array {
  const locals: Buffer[] = [];
  const central: Buffer[] = [];
  let offset = 0;
  for (const entry of entries) {
    const name = Buffer.from(entry.name, "utf8");
    const common = header(entry, name);
    const local = Buffer.concat([Buffer.from([0x50, 0x4b, 0x03, 0x04]), common, name, entry.body]);
    const tail = Buffer.alloc(14);
    tail.writeUInt32LE(offset, 10);
    central.push(Buffer.concat([Buffer.from([0x50, 0x4b, 0x01, 0x02, 20, 0]), common, tail, name]));
    locals.push(local);
    offset += local.length;
  }
  const directory = Buffer.concat(central);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return new Uint8Array(Buffer.concat([...locals, directory, end]));
}

const W = "http://schemas.openxmlformats.org/wordprocessingml/2006/main";
const PACKAGE_RELS = `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>`;
const CONTENT_TYPES = `<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/></Types>`;

function stored(name: string, text: string): RawZipEntry {
  const body = Buffer.from(text, "utf8");
  return { name, body, method: 0, declaredSize: body.length };
}

/**
 * A .docx whose `word/document.xml` holds `xmlBytes` of paragraphs (one
 * `unit` repeated, default a short paragraph), declaring `declaredSize`
 * (default: the truth, capped at 4 GiB − 1).
 */
export function docxOfXml(xmlBytes: number, options: { declaredSize?: number; unit?: string } = {}): Uint8Array {
  const unit = options.unit ?? "<w:p><w:r><w:t>All work and no play.</w:t></w:r></w:p>";
  const prefix = `<?xml version="1.0" encoding="UTF-8"?><w:document xmlns:w="${W}"><w:body>`;
  const { body, size } = deflateRepeated(unit, xmlBytes, prefix, "</w:body></w:document>");
  const declaredSize = options.declaredSize ?? Math.min(size, 0xffffffff);
  return rawZip([
    stored("[Content_Types].xml", CONTENT_TYPES),
    stored("_rels/.rels", PACKAGE_RELS),
    { name: "word/document.xml", body, method: 8, declaredSize },
  ]);
}

/** A .docx whose document nests `depth` elements (tables in table cells). */
export function docxNested(depth: number): Uint8Array {
  const open = "<w:tbl><w:tr><w:tc>".repeat(Math.ceil(depth / 3));
  const close = "<w:p/></w:tc></w:tr></w:tbl>".repeat(Math.ceil(depth / 3));
  const xml = `<?xml version="1.0" encoding="UTF-8"?><w:document xmlns:w="${W}"><w:body>${open}${close}</w:body></w:document>`;
  return rawZip([stored("[Content_Types].xml", CONTENT_TYPES), stored("_rels/.rels", PACKAGE_RELS), stored("word/document.xml", xml)]);
}

/** A one-page PDF of the given objects (numbered from 1), with a correct cross-reference table. */
export function pdfOfObjects(objects: readonly (string | Buffer)[]): Uint8Array {
  const parts: Buffer[] = [Buffer.from("%PDF-1.7\n", "latin1")];
  let length = parts[0]?.length ?? 0;
  const offsets: number[] = [];
  objects.forEach((object, i) => {
    offsets.push(length);
    const part = Buffer.concat([Buffer.from(`${i + 1} 0 obj\n`, "latin1"), Buffer.from(object), Buffer.from("\nendobj\n", "latin1")]);
    parts.push(part);
    length += part.length;
  });
  const entries = offsets.map((o) => `${String(o).padStart(10, "0")} 00000 n \n`).join("");
  const trailer = `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${entries}trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${length}\n%%EOF\n`;
  return new Uint8Array(Buffer.concat([...parts, Buffer.from(trailer, "latin1")]));
}

/** A stream object: its dictionary entries (without `/Length`) and its encoded bytes. */
export function pdfStream(dict: string, data: Buffer): Buffer {
  return Buffer.concat([Buffer.from(`<< ${dict} /Length ${data.length} >>\nstream\n`, "latin1"), data, Buffer.from("\nendstream", "latin1")]);
}

/**
 * A PDF whose single page's content stream inflates to `bytes` of spaces
 * (valid, empty page content), marked as an image when `asImage`.
 */
export function pdfContentBomb(bytes: number, options: { asImage?: boolean; filters?: number } = {}): Uint8Array {
  let data = zlibRepeated(" ", bytes);
  const filters = Math.max(1, options.filters ?? 1);
  for (let i = 1; i < filters; i++) data = deflateSync(data, { level: 9 });
  const filter = `/Filter [${"/FlateDecode ".repeat(filters).trim()}]`;
  const kind = options.asImage === true ? "/Type /XObject /Subtype /Image /Width 1 /Height 1 " : "";
  return pdfOfObjects([
    "<< /Type /Catalog /Pages 2 0 R >>",
    "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
    "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R >>",
    pdfStream(`${kind}${filter}`, data),
  ]);
}
