/**
 * The unpacked size a ZIP archive declares, read from its central
 * directory without inflating anything: a guard against archives that
 * expand to far more than their own size before a parser unpacks them.
 */

const END_SIGNATURE = 0x06054b50;
const ENTRY_SIGNATURE = 0x02014b50;
const END_RECORD_BYTES = 22;
/** The end record sits within the last 64 KiB (its comment) plus its own size. */
const END_SEARCH_BYTES = 0xffff + END_RECORD_BYTES;

function endRecordAt(view: DataView): number | undefined {
  const floor = Math.max(0, view.byteLength - END_SEARCH_BYTES);
  for (let at = view.byteLength - END_RECORD_BYTES; at >= floor; at--) {
    if (view.getUint32(at, true) === END_SIGNATURE) return at;
  }
  return undefined;
}

/**
 * Sum of the uncompressed sizes of all entries, or undefined when the bytes
 * hold no readable central directory (not a ZIP archive). An entry whose
 * size only a ZIP64 record gives counts as infinitely large.
 */
export function declaredUnpackedSize(bytes: Uint8Array): number | undefined {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const end = endRecordAt(view);
  if (end === undefined) return undefined;
  const count = view.getUint16(end + 10, true);
  let at = view.getUint32(end + 16, true);
  let total = 0;
  for (let i = 0; i < count; i++) {
    if (at + 46 > view.byteLength || view.getUint32(at, true) !== ENTRY_SIGNATURE) return undefined;
    const size = view.getUint32(at + 24, true);
    total += size === 0xffffffff ? Number.POSITIVE_INFINITY : size;
    at += 46 + view.getUint16(at + 28, true) + view.getUint16(at + 30, true) + view.getUint16(at + 32, true);
  }
  return total;
}
