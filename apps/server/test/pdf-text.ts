import zlib from 'node:zlib';

/** The text drawn in a PDF: inflates every content stream and decodes its strings (WinAnsi). */
export function pdfText(buf: Buffer): string {
  const latin = buf.toString('latin1');
  const decoder = new TextDecoder('windows-1252');
  const parts: string[] = [];
  let from = 0;
  for (;;) {
    const start = latin.indexOf('stream', from);
    if (start === -1) break;
    const dataStart = start + (latin[start + 6] === '\r' ? 8 : 7);
    const end = latin.indexOf('endstream', dataStart);
    if (end === -1) break;
    from = end + 9;
    if (latin.slice(start - 3, start) === 'end') continue;
    let content: string;
    try {
      content = zlib.inflateSync(buf.subarray(dataStart, end)).toString('latin1');
    } catch {
      content = buf.subarray(dataStart, end).toString('latin1');
    }
    for (const op of content.matchAll(/\[((?:<[0-9a-fA-F]*>|[-\d.\s])*)\]\s*TJ/g)) {
      const hex = [...op[1]!.matchAll(/<([0-9a-fA-F]*)>/g)].map((m) => m[1]).join('');
      parts.push(decoder.decode(Buffer.from(hex, 'hex')));
    }
  }
  return parts.join(' ');
}
