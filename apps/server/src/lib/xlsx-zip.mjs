// The zip ExcelJS reads an uploaded .xlsx from, rebuilt from the upload's central directory. ExcelJS's
// streaming reader inflates every entry it meets, without a limit, and parks a sheet met before
// the shared strings and the workbook's relationships in a temporary file until they come. It is
// given instead a zip holding only what it reads, each entry inflated here first by yauzl, which
// stops it at the size it declares (none past `maxEntryBytes`: a zip bomb is read by no one), in
// an order that needs no temporary file. The stored bytes are copied as they are, not re-deflated.
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import yauzl from 'yauzl';

/** A zip entry that says it inflates past the limit: a zip bomb. */
export class TooLarge extends Error {}
/** A zip whose directory or entries cannot be read (or inflate past what they declare). */
export class Unreadable extends Error {}

/**
 * Every entry of the zip's central directory (zip64 too), in the order they are stored, read by
 * yauzl: its stream of an entry fails as soon as it inflates past the size the entry declares.
 */
async function directory(buffer) {
  let zip;
  const entries = [];
  try {
    zip = await yauzl.fromBufferPromise(buffer, { validateEntrySizes: true });
    for await (const entry of zip.eachEntry()) entries.push(entry);
  } catch {
    throw new Unreadable();
  }
  return {
    zip,
    entries: entries.sort((a, b) => a.relativeOffsetOfLocalHeader - b.relativeOffsetOfLocalHeader),
  };
}

/** An entry inflated to count it (past its declared size, yauzl fails it), with its stored bytes as they are. */
async function checked(zip, buffer, entry) {
  try {
    for await (const chunk of await zip.openReadStreamPromise(entry)) void chunk;
    const header = promisify(zip.readLocalFileHeader.bind(zip));
    const { fileDataStart } = await header(entry, { minimal: true });
    return {
      name: entry.fileName,
      method: entry.compressionMethod,
      crc: entry.crc32,
      size: entry.uncompressedSize,
      data: buffer.subarray(fileDataStart, fileDataStart + entry.compressedSize),
    };
  } catch {
    throw new Unreadable();
  }
}

const RELS = 'xl/_rels/workbook.xml.rels';
const STRINGS = 'xl/sharedStrings.xml';
const WORKBOOK = 'xl/workbook.xml';
const SHEET = /xl\/worksheets\/sheet\d+[.]xml/;
/** A small entry written by us (stored, not deflated). */
function own(name, text) {
  const data = Buffer.from(text);
  return { name, method: 0, crc: zlib.crc32(data), size: data.length, data };
}

/**
 * A zip of the entries, in this order, with plain headers (no zip64, no data descriptors): each
 * `{ name, method (0 stored, 8 deflated), crc, size (as declared, inflated), data (as stored) }`.
 */
export function writeZip(entries) {
  const parts = [];
  const central = [];
  let offset = 0;
  for (const e of entries) {
    const name = Buffer.from(e.name);
    const head = Buffer.alloc(30);
    head.writeUInt32LE(0x04034b50, 0);
    head.writeUInt16LE(20, 4);
    head.writeUInt16LE(0x800, 6);
    head.writeUInt16LE(e.method, 8);
    head.writeUInt16LE(0x21, 12);
    head.writeUInt32LE(e.crc, 14);
    head.writeUInt32LE(e.data.length, 18);
    head.writeUInt32LE(e.size, 22);
    head.writeUInt16LE(name.length, 26);
    const dir = Buffer.alloc(46);
    dir.writeUInt32LE(0x02014b50, 0);
    dir.writeUInt16LE(20, 4);
    dir.writeUInt16LE(20, 6);
    dir.writeUInt16LE(0x800, 8);
    dir.writeUInt16LE(e.method, 10);
    dir.writeUInt16LE(0x21, 14);
    dir.writeUInt32LE(e.crc, 16);
    dir.writeUInt32LE(e.data.length, 20);
    dir.writeUInt32LE(e.size, 24);
    dir.writeUInt16LE(name.length, 28);
    dir.writeUInt32LE(offset, 42);
    parts.push(head, name, e.data);
    central.push(dir, name);
    offset += head.length + name.length + e.data.length;
  }
  const cd = Buffer.concat(central);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(cd.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...parts, cd, end]);
}

/**
 * The zip ExcelJS's streaming reader is given: the workbook's relationships, the workbook, the
 * shared strings and the sheet it would read first (the first one met after the shared strings
 * and the relationships, else the first one), in that order, so that the sheet is read as it comes
 * and never parked in a temporary file (missing relationships or shared strings are given empty,
 * which reads the same). Any entry declaring more than `maxEntryBytes`: TooLarge. Each of the
 * four is inflated here first and must stop at the size it declares; a zip whose directory or
 * entries cannot be read, or that inflate past what they declare: Unreadable.
 */
export async function zipForExcelJs(buffer, maxEntryBytes) {
  const { zip, entries } = await directory(buffer);
  if (entries.some((e) => e.uncompressedSize > maxEntryBytes)) throw new TooLarge();
  let rels;
  let workbook;
  let strings;
  let sheet;
  const waiting = [];
  for (const entry of entries) {
    if (entry.fileName === RELS) rels = entry;
    else if (entry.fileName === WORKBOOK) workbook = entry;
    else if (entry.fileName === STRINGS) strings = entry;
    else if (SHEET.test(entry.fileName)) {
      if (strings && rels) {
        sheet = entry;
        break;
      }
      waiting.push(entry);
    }
  }
  sheet ??= waiting[0];
  const read = async (entry) => entry && (await checked(zip, buffer, entry));
  [rels, workbook, strings, sheet] = [
    await read(rels),
    await read(workbook),
    await read(strings),
    await read(sheet),
  ];
  return writeZip([
    rels ??
      own(
        RELS,
        '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"/>',
      ),
    ...(workbook ? [workbook] : []),
    strings ??
      own(STRINGS, '<sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"/>'),
    ...(sheet ? [sheet] : []),
  ]);
}
