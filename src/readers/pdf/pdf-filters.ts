/**
 * PDF stream filters decoded with a cap on their output, to measure what a
 * stream expands to before pdf.js decodes it (with no cap of its own).
 * Each decoder stops at the cap, and on damaged data keeps what it decoded
 * before the damage, as pdf.js does. Image-only filters (DCT, JPX, JBIG2,
 * CCITT) are not decoded: text extraction never decodes them.
 */
import { createInflate } from "node:zlib";
import { lookupTable } from "../../lookup.js";

/** A decoded stream: its bytes (up to the cap), and whether it would have gone past the cap. */
export interface Decoded {
  data: Uint8Array;
  overflow: boolean;
  /** Whether decoding stopped at damage (bad data, a checksum that does not match, a truncated end). */
  damaged?: boolean;
}

/** Collects output chunks up to `cap` bytes. */
class CappedOutput {
  readonly #chunks: Uint8Array[] = [];
  #size = 0;
  overflow = false;

  constructor(readonly cap: number) {}

  /** Adds a chunk; false (and `overflow`) once the output passes the cap. */
  push(chunk: Uint8Array): boolean {
    this.#size += chunk.length;
    if (this.#size > this.cap) this.overflow = true;
    else this.#chunks.push(chunk);
    return !this.overflow;
  }

  result(): Decoded {
    return { data: this.overflow ? new Uint8Array(0) : Buffer.concat(this.#chunks), overflow: this.overflow };
  }
}

/**
 * FlateDecode: a zlib stream, inflated natively as pdf.js first tries to
 * (through `DecompressionStream`, checksum included), counting what comes
 * out before any damage.
 */
function inflate(data: Uint8Array, cap: number): Promise<Decoded> {
  const out = new CappedOutput(cap);
  const cmf = data[0] ?? 0;
  const flg = data[1] ?? 0;
  // pdf.js refuses a stream whose header is not zlib's, decoding nothing.
  if ((cmf & 0x0f) !== 8 || ((cmf << 8) + flg) % 31 !== 0 || (flg & 0x20) !== 0) return Promise.resolve(out.result());
  return new Promise((resolve) => {
    const inflater = createInflate();
    let damaged = false;
    const finish = (): void => resolve({ ...out.result(), damaged });
    inflater.on("data", (chunk: Buffer) => {
      if (!out.push(chunk)) {
        inflater.destroy();
        finish();
      }
    });
    inflater.on("error", () => {
      damaged = true;
      finish();
    });
    inflater.on("end", finish);
    inflater.end(data);
  });
}

/** Reads codes of a growing width, most significant bit first. */
class BitReader {
  #at = 0;
  #bits = 0;
  #buffer = 0;

  constructor(readonly data: Uint8Array) {}

  read(width: number): number | undefined {
    while (this.#bits < width) {
      const byte = this.data[this.#at++];
      if (byte === undefined) return undefined;
      this.#buffer = ((this.#buffer << 8) | byte) & 0xffffff;
      this.#bits += 8;
    }
    this.#bits -= width;
    return (this.#buffer >>> this.#bits) & ((1 << width) - 1);
  }
}

/** LZWDecode (PDF's variant: 9 to 12 bit codes, `earlyChange` as in /DecodeParms, default 1). */
function lzw(data: Uint8Array, cap: number, earlyChange: number): Decoded {
  const out = new CappedOutput(cap);
  const prefix = new Int32Array(4096);
  const suffix = new Uint8Array(4096);
  const length = new Int32Array(4096).fill(1);
  const bits = new BitReader(data);
  let width = 9;
  let next = 258;
  let previous = -1;
  const sequence = (code: number): Uint8Array => {
    const bytes = new Uint8Array(length[code] ?? 1);
    for (let c = code, i = bytes.length - 1; i >= 0; c = prefix[c] ?? 0, i--) bytes[i] = c < 256 ? c : (suffix[c] ?? 0);
    return bytes;
  };
  for (let code = bits.read(width); code !== undefined && code !== 257; code = bits.read(width)) {
    if (code === 256) {
      [width, next, previous] = [9, 258, -1];
      continue;
    }
    if (code > next || (code === next && previous < 0)) break;
    const emitted = code < next ? sequence(code) : sequence(previous);
    const first = emitted[0] ?? 0;
    const bytes = code === next ? Buffer.concat([emitted, Uint8Array.of(first)]) : emitted;
    if (!out.push(bytes)) break;
    if (previous >= 0 && next < 4096) {
      [prefix[next], suffix[next], length[next]] = [previous, bytes[0] ?? 0, (length[previous] ?? 1) + 1];
      next++;
    }
    if (next + earlyChange >= 1 << width && width < 12) width++;
    previous = code;
  }
  return out.result();
}

/** RunLengthDecode: a length byte, then that many literal bytes or one byte repeated. */
function runLength(data: Uint8Array, cap: number): Decoded {
  const out = new CappedOutput(cap);
  for (let i = 0; i < data.length; ) {
    const n = data[i] ?? 128;
    if (n === 128) break;
    const chunk = n < 128 ? data.subarray(i + 1, i + 2 + n) : new Uint8Array(257 - n).fill(data[i + 1] ?? 0);
    if (!out.push(chunk)) break;
    i += n < 128 ? n + 2 : 2;
  }
  return out.result();
}

/** ASCIIHexDecode: pairs of hex digits up to `>`, whitespace ignored. */
function asciiHex(data: Uint8Array): Decoded {
  const text = Buffer.from(data).toString("latin1");
  const end = text.indexOf(">");
  const digits = (end < 0 ? text : text.slice(0, end)).replace(/[^0-9a-fA-F]/g, "");
  return { data: Buffer.from(digits.length % 2 === 0 ? digits : `${digits}0`, "hex"), overflow: false };
}

/** ASCII85Decode: groups of five characters to four bytes, `z` for four zeros, up to `~>`. */
function ascii85(data: Uint8Array, cap: number): Decoded {
  const out = new CappedOutput(cap);
  const text = Buffer.from(data).toString("latin1");
  const end = text.indexOf("~>");
  const chars = (end < 0 ? text : text.slice(0, end)).replace(/\s/g, "");
  const group: number[] = [];
  for (let i = 0; i < chars.length; i++) {
    if (chars[i] === "z" && group.length === 0) {
      if (!out.push(new Uint8Array(4))) break;
      continue;
    }
    group.push(chars.charCodeAt(i) - 33);
    if (group.length === 5 || i === chars.length - 1) {
      const size = group.length - 1;
      while (group.length < 5) group.push(84);
      const value = group.reduce((acc, digit) => acc * 85 + digit, 0) >>> 0;
      const bytes = Uint8Array.of(value >>> 24, (value >>> 16) & 0xff, (value >>> 8) & 0xff, value & 0xff);
      if (!out.push(bytes.subarray(0, Math.max(0, size)))) break;
      group.length = 0;
    }
  }
  return out.result();
}

/** Filter names (full and abbreviated, as inline images write them) this module decodes. */
const FILTERS = lookupTable<string>({
  FlateDecode: "flate", Fl: "flate", LZWDecode: "lzw", LZW: "lzw", RunLengthDecode: "rl", RL: "rl",
  ASCIIHexDecode: "hex", AHx: "hex", ASCII85Decode: "a85", A85: "a85",
});

/**
 * `data` decoded by the filter `name` within `cap` bytes, or undefined for
 * a filter that text extraction does not decode (an image codec) or that
 * is unknown.
 */
export async function decodeFilter(name: string, data: Uint8Array, cap: number, earlyChange = 1): Promise<Decoded | undefined> {
  switch (FILTERS[name]) {
    case "flate":
      return inflate(data, cap);
    case "lzw":
      return lzw(data, cap, earlyChange);
    case "rl":
      return runLength(data, cap);
    case "hex":
      return asciiHex(data);
    case "a85":
      return ascii85(data, cap);
    default:
      return undefined;
  }
}
