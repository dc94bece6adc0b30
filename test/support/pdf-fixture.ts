import { deflateSync } from "node:zlib";
/**
 * Builds small, valid PDF files for reader tests: one page per entry, each
 * line of text set in Helvetica from the top of the page down, with a
 * correct cross-reference table.
 */

/** One line on a page; `gap` adds extra space above it (a paragraph break). */
export interface PdfLine {
  text: string;
  size?: number;
  gap?: boolean;
}

/** Escapes a string for a PDF literal string (Latin-1 text only). */
function pdfString(text: string): string {
  return `(${text.replace(/[\\()]/g, (ch) => `\\${ch}`)})`;
}

function contentStream(lines: readonly PdfLine[]): string {
  const ops: string[] = [];
  let y = 760;
  for (const line of lines) {
    const size = line.size ?? 11;
    y -= line.gap === true ? size * 2.4 : size * 1.3;
    ops.push(`BT /F1 ${size} Tf 72 ${y.toFixed(1)} Td ${pdfString(line.text)} Tj ET`);
  }
  return ops.join("\n");
}

/** Objects of the document, numbered from 1 in array order. */
function pdfObjects(pages: readonly (readonly PdfLine[])[]): string[] {
  const firstPage = 4;
  const kids = pages.map((_, i) => `${firstPage + i * 2} 0 R`).join(" ");
  const objects = [
    "<< /Type /Catalog /Pages 2 0 R >>",
    `<< /Type /Pages /Kids [${kids}] /Count ${pages.length} >>`,
    "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>",
  ];
  pages.forEach((lines, i) => {
    const stream = contentStream(lines);
    objects.push(
      `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> >> /Contents ${firstPage + i * 2 + 1} 0 R >>`,
      `<< /Length ${Buffer.byteLength(stream, "latin1")} >>\nstream\n${stream}\nendstream`,
    );
  });
  return objects;
}

/** A PDF with one page per entry of `pages` (an empty entry is a blank page). */
export function buildPdf(pages: readonly (readonly PdfLine[])[]): Uint8Array {
  let body = "%PDF-1.4\n";
  const offsets: number[] = [];
  pdfObjects(pages).forEach((object, i) => {
    offsets.push(Buffer.byteLength(body, "latin1"));
    body += `${i + 1} 0 obj\n${object}\nendobj\n`;
  });
  const xrefAt = Buffer.byteLength(body, "latin1");
  const entries = offsets.map((o) => `${String(o).padStart(10, "0")} 00000 n \n`).join("");
  body += `xref\n0 ${offsets.length + 1}\n0000000000 65535 f \n${entries}`;
  body += `trailer\n<< /Size ${offsets.length + 1} /Root 1 0 R >>\nstartxref\n${xrefAt}\n%%EOF\n`;
  return new Uint8Array(Buffer.from(body, "latin1"));
}

/** A PDF whose page contents are Flate-compressed streams, so none of its text is in the bytes. */
export function compressedPdf(pages: readonly (readonly string[])[]): Uint8Array {
  // Bytes, not strings: a compressed stream may hold any byte.
  const objects: Buffer[] = [
    Buffer.from("<< /Type /Catalog /Pages 2 0 R >>"),
    Buffer.from(`<< /Type /Pages /Kids [${pages.map((_, i) => `${4 + i * 2} 0 R`).join(" ")}] /Count ${pages.length} >>`),
    Buffer.from("<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>"),
  ];
  pages.forEach((lines, i) => {
    const ops = lines.map((text, k) => `BT /F1 11 Tf 72 ${740 - k * 16} Td (${text}) Tj ET`).join("\n");
    const z = deflateSync(Buffer.from(ops, "latin1"));
    objects.push(Buffer.from(`<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> >> /Contents ${5 + i * 2} 0 R >>`));
    objects.push(Buffer.concat([Buffer.from(`<< /Length ${z.length} /Filter /FlateDecode >>\nstream\n`), z, Buffer.from("\nendstream")]));
  });
  const parts = [Buffer.from("%PDF-1.5\n%\xe2\xe3\xcf\xd3\n", "latin1")];
  const offsets: number[] = [];
  let size = parts[0]!.length;
  objects.forEach((body, i) => {
    offsets.push(size);
    const object = Buffer.concat([Buffer.from(`${i + 1} 0 obj\n`), body, Buffer.from("\nendobj\n")]);
    parts.push(object);
    size += object.length;
  });
  const xref = `xref\n0 ${offsets.length + 1}\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, "0")} 00000 n \n`).join("")}`;
  parts.push(Buffer.from(`${xref}trailer\n<< /Size ${offsets.length + 1} /Root 1 0 R >>\nstartxref\n${size}\n%%EOF\n`));
  return new Uint8Array(Buffer.concat(parts));
}
