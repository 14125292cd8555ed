// The zip ExcelJS reads an uploaded .xlsx from, rebuilt from the upload's central directory. ExcelJS's
// streaming reader inflates every entry it meets, without a limit, and parks a sheet met before
// the shared strings and the workbook's relationships in a temporary file until they come. It is
// given instead a zip holding only what it reads, each entry inflated here first with its bytes
// counted (no entry past `maxEntryBytes`: a zip bomb is read by no one), in an order that needs no
// temporary file.
import zlib from 'node:zlib';

/** A zip entry that inflates (or says it does) past the limit: a zip bomb. */
export class TooLarge extends Error {}
/** A zip whose directory or entries cannot be read. */
export class Unreadable extends Error {}

const broken = () => {
  throw new Unreadable();
};

/** Where the zip's end-of-central-directory record starts (searched backwards past a comment), or -1. */
function endOfDirectory(buf) {
  for (let i = buf.length - 22, min = Math.max(0, buf.length - 65_557); i >= min; i--) {
    if (buf.readUInt32LE(i) === 0x06054b50) return i;
  }
  return -1;
}

function u64(buf, at) {
  if (at + 8 > buf.length) broken();
  const value = buf.readBigUInt64LE(at);
  return value > BigInt(Number.MAX_SAFE_INTEGER) ? Infinity : Number(value);
}
/** Every entry of the central directory (zip64 too), with its declared inflated size and its stored bytes. */
function directory(buf) {
  const eocd = endOfDirectory(buf);
  if (eocd < 0) broken();
  let count = buf.readUInt16LE(eocd + 10);
  let p = buf.readUInt32LE(eocd + 16);
  if (count === 0xffff || p === 0xffffffff) {
    const locator = eocd - 20;
    if (locator < 0 || buf.readUInt32LE(locator) !== 0x07064b50) broken();
    const end64 = u64(buf, locator + 8);
    if (end64 + 56 > buf.length || buf.readUInt32LE(end64) !== 0x06064b50) broken();
    count = u64(buf, end64 + 32);
    p = u64(buf, end64 + 48);
  }
  const entries = [];
  for (let n = 0; n < count; n++) {
    if (p + 46 > buf.length || buf.readUInt32LE(p) !== 0x02014b50) broken();
    const flags = buf.readUInt16LE(p + 8);
    const method = buf.readUInt16LE(p + 10);
    let stored = buf.readUInt32LE(p + 20);
    let size = buf.readUInt32LE(p + 24);
    const nameLen = buf.readUInt16LE(p + 28);
    const extraLen = buf.readUInt16LE(p + 30);
    let local = buf.readUInt32LE(p + 42);
    const extraEnd = p + 46 + nameLen + extraLen;
    if (extraEnd > buf.length) broken();
    if (size === 0xffffffff || stored === 0xffffffff || local === 0xffffffff) {
      // The zip64 extra field holds, in this order, the values marked 0xffffffff.
      for (let q = p + 46 + nameLen; q + 4 <= extraEnd; q += 4 + buf.readUInt16LE(q + 2)) {
        if (buf.readUInt16LE(q) !== 1) continue;
        let r = q + 4;
        const end = Math.min(r + buf.readUInt16LE(q + 2), extraEnd);
        const next = () => (r + 8 <= end ? u64(buf, (r += 8) - 8) : broken());
        if (size === 0xffffffff) size = next();
        if (stored === 0xffffffff) stored = next();
        if (local === 0xffffffff) local = next();
        break;
      }
    }
    if (flags & 1 || (method !== 0 && method !== 8)) broken();
    if (local + 30 > buf.length || buf.readUInt32LE(local) !== 0x04034b50) broken();
    const start = local + 30 + buf.readUInt16LE(local + 26) + buf.readUInt16LE(local + 28);
    if (start + stored > buf.length) broken();
    entries.push({
      name: buf.toString('utf8', p + 46, p + 46 + nameLen),
      method,
      crc: buf.readUInt32LE(p + 16),
      size,
      local,
      data: buf.subarray(start, start + stored),
    });
    p = extraEnd + buf.readUInt16LE(p + 32);
  }
  return entries.sort((a, b) => a.local - b.local);
}

/** An entry's bytes, chunk by chunk, inflated as they are read: past `maxBytes` (whatever it declared), TooLarge. */
async function* entryBytes(entry, maxBytes) {
  if (entry.method === 0) {
    if (entry.data.length > maxBytes) throw new TooLarge();
    for (let i = 0; i < entry.data.length; i += 1 << 20)
      yield entry.data.subarray(i, i + (1 << 20));
    return;
  }
  const inflate = zlib.createInflateRaw({ chunkSize: 1 << 18 });
  inflate.end(entry.data);
  let total = 0;
  for await (const chunk of inflate) {
    if ((total += chunk.length) > maxBytes) throw new TooLarge();
    yield chunk;
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
 * which reads the same). Each of them is inflated here first, counting its bytes: past
 * `maxEntryBytes` (or declaring more, as any entry may not), TooLarge; a zip whose directory or
 * entries cannot be read, Unreadable.
 */
export async function zipForExcelJs(buffer, maxEntryBytes) {
  const entries = directory(buffer);
  if (entries.some((e) => e.size > maxEntryBytes)) throw new TooLarge();
  let rels;
  let workbook;
  let strings;
  let sheet;
  const waiting = [];
  for (const entry of entries) {
    if (entry.name === RELS) rels = entry;
    else if (entry.name === WORKBOOK) workbook = entry;
    else if (entry.name === STRINGS) strings = entry;
    else if (SHEET.test(entry.name)) {
      if (strings && rels) {
        sheet = entry;
        break;
      }
      waiting.push(entry);
    }
  }
  sheet ??= waiting[0];
  for (const entry of [rels, workbook, strings, sheet]) {
    if (!entry) continue;
    let size = 0;
    try {
      for await (const chunk of entryBytes(entry, maxEntryBytes)) size += chunk.length;
    } catch (err) {
      throw err instanceof TooLarge ? err : new Unreadable();
    }
    entry.size = size;
  }
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
