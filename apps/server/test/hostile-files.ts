import { once } from 'node:events';
import { PassThrough } from 'node:stream';
import zlib from 'node:zlib';
import ExcelJS from 'exceljs';
import { writeZip, type ZipEntry } from '../src/lib/xlsx-zip.mjs';

/** Spreadsheets as careless users (and attackers) make them: for the upload tests and the upload benchmark. */

async function streamedWorkbook(fill: (ws: ExcelJS.Worksheet) => void): Promise<Buffer> {
  const out = new PassThrough();
  const chunks: Buffer[] = [];
  out.on('data', (c: Buffer) => chunks.push(c));
  const wb = new ExcelJS.stream.xlsx.WorkbookWriter({
    stream: out,
    useSharedStrings: false,
    useStyles: false,
  });
  fill(wb.addWorksheet('Hoja1'));
  await wb.commit();
  return Buffer.concat(chunks);
}

/** `rows` rows each holding one cell in the last column (XFD): what a whole row formatted in Excel looks like. */
export function lastColumnWorkbook(rows = 2000): Promise<Buffer> {
  return streamedWorkbook((ws) => {
    for (let r = 1; r <= rows; r++) {
      const row = ws.getRow(r);
      row.getCell(16_384).value = 'x';
      row.commit();
    }
  });
}

/** A header and `rows` data rows of one short cell. */
export function tallWorkbook(rows: number): Promise<Buffer> {
  return streamedWorkbook((ws) => {
    ws.addRow(['RUT']).commit();
    for (let r = 0; r < rows; r++) ws.addRow([r]).commit();
  });
}

/** A .csv of `bytes` bytes of `a\n` lines. */
export function lineCsv(bytes: number): Buffer {
  return Buffer.from('a\n'.repeat(Math.floor(bytes / 2)));
}

/**
 * One entry of a hand-made zip: its name and its content, given in parts (deflated as they come);
 * `declared`: the inflated size its headers claim, when not the true one; `runs`: the content is
 * mostly one repeated byte (deflated much faster, as small).
 */
export interface ZipPart {
  name: string;
  parts: Iterable<Buffer>;
  declared?: number;
  runs?: boolean;
}

/** A zip of the entries in the order given, each deflated a part at a time (a 256 MB entry never sits in memory). */
export async function zipOf(entries: ZipPart[]): Promise<Buffer> {
  const written: ZipEntry[] = [];
  for (const entry of entries) {
    const deflate = zlib.createDeflateRaw(
      entry.runs ? { level: 1, strategy: zlib.constants.Z_RLE } : { level: 9 },
    );
    const data: Buffer[] = [];
    deflate.on('data', (c: Buffer) => data.push(c));
    const ended = once(deflate, 'end');
    let crc = 0;
    let size = 0;
    for (const part of entry.parts) {
      crc = zlib.crc32(part, crc);
      size += part.length;
      if (!deflate.write(part)) await once(deflate, 'drain');
    }
    deflate.end();
    await ended;
    written.push({
      name: entry.name,
      method: 8,
      crc,
      size: entry.declared ?? size,
      data: Buffer.concat(data),
    });
  }
  return writeZip(written);
}

/** `times` copies of `text` (as a part list sharing one buffer), between `head` and `tail`. */
function* repeated(text: string, times: number, head = '', tail = ''): Iterable<Buffer> {
  if (head) yield Buffer.from(head);
  const block = Buffer.from(text.repeat(Math.max(1, Math.floor((1 << 20) / text.length))));
  const perBlock = block.length / Buffer.byteLength(text);
  for (let left = times; left > 0; left -= perBlock)
    yield left >= perBlock ? block : Buffer.from(text.repeat(left));
  if (tail) yield Buffer.from(tail);
}

const NS = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
const WORKBOOK: ZipPart[] = [
  {
    name: 'xl/workbook.xml',
    parts: [
      Buffer.from(
        `<workbook xmlns="${NS}" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets><sheet name="Hoja1" sheetId="1" r:id="rId1"/></sheets></workbook>`,
      ),
    ],
  },
  {
    name: 'xl/_rels/workbook.xml.rels',
    parts: [
      Buffer.from(
        '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/></Relationships>',
      ),
    ],
  },
];
const CONTENT_TYPES: ZipPart = {
  name: '[Content_Types].xml',
  parts: [
    Buffer.from('<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"/>'),
  ],
};

/**
 * A zip bomb: a workbook of a few hundred KB whose sheet inflates to `megabytes` MB, stored before
 * the shared strings (a streaming reader parks such a sheet in a temporary file until they come).
 * `xml`: the sheet is well-formed (whitespace inside the sheet data) rather than bytes no reader
 * accepts; `declared`: the inflated size the zip claims for it, when not the true one.
 */
export function zipBombWorkbook(
  megabytes: number,
  { xml = false, declared }: { xml?: boolean; declared?: number } = {},
): Promise<Buffer> {
  const sheet = xml
    ? repeated(
        ' ',
        megabytes << 20,
        `<worksheet xmlns="${NS}"><sheetData>`,
        '</sheetData></worksheet>',
      )
    : repeated('a', megabytes << 20);
  return zipOf([
    CONTENT_TYPES,
    { name: 'xl/worksheets/sheet1.xml', parts: sheet, declared, runs: true },
    ...WORKBOOK,
    { name: 'xl/sharedStrings.xml', parts: [Buffer.from(`<sst xmlns="${NS}"/>`)] },
  ]);
}

/**
 * A workbook that exhausts the reading thread's heap: `strings` shared strings of `length`
 * characters, after a sheet of `sheetMegabytes` MB (which a streaming reader parks in a temporary
 * file). Its content types are stored twice (a duplicate entry name, which ExcelJS accepts).
 */
export function heapBombWorkbook(
  strings = 100_000,
  length = 1000,
  sheetMegabytes = 16,
): Promise<Buffer> {
  return zipOf([
    CONTENT_TYPES,
    CONTENT_TYPES,
    {
      name: 'xl/worksheets/sheet1.xml',
      parts: repeated(
        ' ',
        sheetMegabytes << 20,
        `<worksheet xmlns="${NS}"><sheetData><row r="1"><c r="A1" t="s"><v>0</v></c></row>`,
        '</sheetData></worksheet>',
      ),
      runs: true,
    },
    ...WORKBOOK,
    {
      name: 'xl/sharedStrings.xml',
      parts: repeated(
        `<si><t>${'x'.repeat(length)}</t></si>`,
        strings,
        `<sst xmlns="${NS}">`,
        '</sst>',
      ),
    },
  ]);
}
