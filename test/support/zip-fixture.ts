/**
 * A minimal ZIP writer for reader tests (deflate or stored entries, no
 * extras): enough to assemble Office Open XML packages in memory.
 */
import { deflateRawSync } from "node:zlib";

/** One entry of the archive. */
export interface ZipEntry {
  name: string;
  data: string | Uint8Array;
}

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(bytes: Uint8Array): number {
  let crc = 0xffffffff;
  for (const byte of bytes) crc = (CRC_TABLE[(crc ^ byte) & 0xff] ?? 0) ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

interface Header {
  name: Buffer;
  crc: number;
  method: number;
  compressedSize: number;
  size: number;
}

/** The fields local and central headers share, from "version needed" on. */
function commonFields(h: Header): Buffer {
  const b = Buffer.alloc(26);
  b.writeUInt16LE(20, 0);
  b.writeUInt16LE(0x0800, 2);
  b.writeUInt16LE(h.method, 4);
  b.writeUInt32LE(0, 6);
  b.writeUInt32LE(h.crc, 10);
  b.writeUInt32LE(h.compressedSize, 14);
  b.writeUInt32LE(h.size, 18);
  b.writeUInt16LE(h.name.length, 22);
  b.writeUInt16LE(0, 24);
  return b;
}

function centralRecord(h: Header, offset: number): Buffer {
  const head = Buffer.alloc(6);
  head.writeUInt32LE(0x02014b50, 0);
  head.writeUInt16LE(20, 4);
  // Comment length, disk, internal and external attributes, then the offset.
  const tail = Buffer.alloc(14);
  tail.writeUInt32LE(offset, 10);
  return Buffer.concat([head, commonFields(h), tail, h.name]);
}

function endRecord(count: number, size: number, offset: number): Buffer {
  const b = Buffer.alloc(22);
  b.writeUInt32LE(0x06054b50, 0);
  b.writeUInt16LE(count, 8);
  b.writeUInt16LE(count, 10);
  b.writeUInt32LE(size, 12);
  b.writeUInt32LE(offset, 16);
  return b;
}

/**
 * A ZIP archive of `entries`. `store` keeps entries uncompressed; `sizeOf`
 * overrides the size an entry declares (to build archives that lie).
 */
export function buildZip(entries: readonly ZipEntry[], options: { store?: boolean; sizeOf?: (name: string) => number } = {}): Uint8Array {
  const parts: Buffer[] = [];
  const central: Buffer[] = [];
  let offset = 0;
  for (const entry of entries) {
    const raw = typeof entry.data === "string" ? Buffer.from(entry.data, "utf8") : Buffer.from(entry.data);
    const body = options.store === true ? raw : deflateRawSync(raw);
    const h: Header = {
      name: Buffer.from(entry.name, "utf8"),
      crc: crc32(raw),
      method: options.store === true ? 0 : 8,
      compressedSize: body.length,
      size: options.sizeOf?.(entry.name) ?? raw.length,
    };
    const sig = Buffer.alloc(4);
    sig.writeUInt32LE(0x04034b50, 0);
    const local = Buffer.concat([sig, commonFields(h), h.name, body]);
    central.push(centralRecord(h, offset));
    parts.push(local);
    offset += local.length;
  }
  const directory = Buffer.concat(central);
  return new Uint8Array(Buffer.concat([...parts, directory, endRecord(entries.length, directory.length, offset)]));
}
