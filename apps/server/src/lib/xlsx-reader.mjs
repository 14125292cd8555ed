// The first sheet of an .xlsx as rows of cell texts, read the way ExcelJS's streaming reader
// reads it (the same entries, the same cell values) but straight from the uploaded bytes: the zip's
// central directory gives each entry, the sheet is inflated and tokenised chunk by chunk (a stream:
// reading stops at the row limit, columns past `maxCols` are never kept). A workbook using anything
// outside this subset (zip64, encryption, a DOCTYPE or CDATA, unknown entities, malformed XML,
// unusual cell addresses, ...) throws NotHandled and is read by ExcelJS instead, from the zip that
// zipForExcelJs rebuilds. No entry is inflated past `maxEntryBytes` by either reader (TooLarge).
import zlib from 'node:zlib';

export class NotHandled extends Error {}
/** A zip entry that inflates (or says it does) past the limit: a zip bomb, read by no reader. */
export class TooLarge extends Error {}
/** A zip the general reader cannot read either. */
export class Unreadable extends Error {}

const fail = () => {
  throw new NotHandled();
};

/** Where the zip's end-of-central-directory record starts (searched backwards past a comment), or -1. */
function endOfDirectory(buf) {
  for (let i = buf.length - 22, min = Math.max(0, buf.length - 65_557); i >= min; i--) {
    if (buf.readUInt32LE(i) === 0x06054b50) return i;
  }
  return -1;
}

/** The zip's entries in the order they are stored (the order a streaming reader meets them). */
function zipEntries(buf, maxEntryBytes) {
  const eocd = endOfDirectory(buf);
  if (eocd < 0) fail();
  const count = buf.readUInt16LE(eocd + 10);
  let p = buf.readUInt32LE(eocd + 16);
  if (count === 0xffff || p === 0xffffffff) fail();
  const entries = [];
  const names = new Set();
  for (let n = 0; n < count; n++) {
    if (p + 46 > buf.length || buf.readUInt32LE(p) !== 0x02014b50) fail();
    const flags = buf.readUInt16LE(p + 8);
    const method = buf.readUInt16LE(p + 10);
    const size = buf.readUInt32LE(p + 20);
    const inflated = buf.readUInt32LE(p + 24);
    const nameLen = buf.readUInt16LE(p + 28);
    const local = buf.readUInt32LE(p + 42);
    const name = buf.toString('utf8', p + 46, p + 46 + nameLen);
    if (flags & 1 || (method !== 0 && method !== 8) || (method === 0 && flags & 8) || size === 0xffffffff || inflated === 0xffffffff || local === 0xffffffff) fail();
    if (inflated > maxEntryBytes || size > maxEntryBytes) throw new TooLarge();
    if (local + 30 > buf.length || buf.readUInt32LE(local) !== 0x04034b50) fail();
    const localNameLen = buf.readUInt16LE(local + 26);
    if (buf.toString('utf8', local + 30, local + 30 + localNameLen) !== name || names.has(name)) fail();
    const start = local + 30 + localNameLen + buf.readUInt16LE(local + 28);
    if (start + size > buf.length) fail();
    names.add(name);
    entries.push({ name, method, local, data: buf.subarray(start, start + size), maxBytes: maxEntryBytes });
    p += 46 + nameLen + buf.readUInt16LE(p + 30) + buf.readUInt16LE(p + 32);
  }
  return entries.sort((a, b) => a.local - b.local);
}

/** An entry's bytes, chunk by chunk, inflated as they are read: past `maxBytes` (whatever it declared), TooLarge. */
async function* entryBytes(entry, maxBytes) {
  if (entry.method === 0) {
    if (entry.data.length > maxBytes) throw new TooLarge();
    for (let i = 0; i < entry.data.length; i += 1 << 20) yield entry.data.subarray(i, i + (1 << 20));
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

/** An entry's text, chunk by chunk, inflated as it is read. */
async function* entryText(entry) {
  const decoder = new TextDecoder();
  for await (const chunk of entryBytes(entry, entry.maxBytes)) yield decoder.decode(chunk, { stream: true });
  const rest = decoder.decode();
  if (rest) yield rest;
}

const NAMED = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };
const ENTITY = /&(?:#([0-9]+)|#x([0-9a-fA-F]+)|(lt|gt|amp|quot|apos));/g;
const BAD_CHAR = /[\x00-\x08\x0B\x0C\x0E-\x1F\uFFFE\uFFFF]/;
const SPACE = /[\t\n\r]/;
const NAME = /^[A-Za-z_:][A-Za-z0-9_:.-]*$/;
const ATTR = /\s+([^\s=/>]+)\s*=\s*(?:"([^"<]*)"|'([^'<]*)')/y;

function codePoint(cp) {
  const ok = cp === 9 || cp === 10 || cp === 13 || (cp >= 0x20 && cp <= 0xd7ff) || (cp >= 0xe000 && cp <= 0xfffd) || (cp >= 0x10000 && cp <= 0x10ffff);
  return ok ? String.fromCodePoint(cp) : fail();
}

/** XML character data as a conforming parser gives it: line ends normalised, entities replaced. */
function decode(text) {
  if (BAD_CHAR.test(text)) fail();
  if (text.includes('\r')) text = text.replace(/\r\n?/g, '\n');
  if (!text.includes('&')) return text;
  if (text.replace(ENTITY, '').includes('&')) fail();
  return text.replace(ENTITY, (_, dec, hex, named) => (named ? NAMED[named] : codePoint(dec ? parseInt(dec, 10) : parseInt(hex, 16))));
}

/** A small XML tokeniser: open tags with attributes, text, close tags; checks nesting. */
class Tokens {
  constructor(handler) {
    this.handler = handler;
    this.rest = '';
    this.stack = [];
    this.rootDone = false;
    this.names = new Set();
  }

  text(raw) {
    if (!this.stack.length && raw.trim() !== '') fail();
    const text = decode(raw);
    if (text) this.handler.text(text);
  }

  /** Feeds a chunk; a tag or text cut by the chunk's end waits for the next one. */
  feed(chunk) {
    const s = this.rest + chunk;
    let i = 0;
    for (;;) {
      const lt = s.indexOf('<', i);
      if (lt < 0) {
        // Text runs on: pass it on now (a long text is not scanned again and again), keeping back
        // what may be the start of an entity or of a CR LF.
        let end = s.length;
        const amp = s.lastIndexOf('&');
        if (amp >= i && end - amp <= 12) end = amp;
        if (end > i && s.charCodeAt(end - 1) === 13) end--;
        if (end > i) this.text(s.slice(i, end));
        i = end;
        break;
      }
      if (lt > i) this.text(s.slice(i, lt));
      i = lt;
      const next = s.charCodeAt(lt + 1);
      if (next !== next) break; // the chunk ends after '<'
      if (next === 33) {
        // '<!': comments only; a DOCTYPE or CDATA is not handled here.
        if (s.length < lt + 4) break;
        if (!s.startsWith('<!--', lt)) fail();
        const end = s.indexOf('-->', lt + 4);
        if (end < 0) break;
        i = end + 3;
        continue;
      }
      if (next === 63) {
        const end = s.indexOf('?>', lt + 2);
        if (end < 0) break;
        i = end + 2;
        continue;
      }
      const gt = s.indexOf('>', lt);
      if (gt < 0) break;
      i = gt + 1;
      if (next === 47) {
        const name = s.slice(lt + 2, gt).trimEnd();
        if (this.stack.pop() !== name) fail();
        if (!this.stack.length) this.rootDone = true;
        this.handler.close(name);
      } else {
        this.tag(s, lt + 1, gt);
      }
      if (this.handler.stopped) return;
    }
    this.rest = s.slice(i);
    // A tag longer than this is no spreadsheet's.
    if (this.rest.length > 1 << 20) fail();
  }

  tag(s, from, gt) {
    const selfClosing = s.charCodeAt(gt - 1) === 47;
    const end = selfClosing ? gt - 1 : gt;
    let p = from;
    for (let ch = s.charCodeAt(p); p < end && ch !== 32 && ch !== 9 && ch !== 10 && ch !== 13; ch = s.charCodeAt(++p));
    const name = s.slice(from, p);
    if (this.rootDone || (!this.names.has(name) && !(NAME.test(name) && this.names.add(name)))) fail();
    const attributes = {};
    ATTR.lastIndex = p;
    for (let m; p < end && (m = ATTR.exec(s)) && ATTR.lastIndex <= end; p = ATTR.lastIndex) {
      const raw = m[2] ?? m[3];
      if (m[1] in attributes) fail();
      attributes[m[1]] = SPACE.test(raw) ? decode(raw.replace(/\r\n?/g, '\n').replace(/[\t\n]/g, ' ')) : decode(raw);
    }
    if (s.slice(p, end).trim() !== '') fail();
    this.handler.open(name, attributes);
    if (selfClosing) {
      if (!this.stack.length) this.rootDone = true;
      this.handler.close(name);
    } else this.stack.push(name);
  }

  end() {
    if (this.rest.trim() !== '') fail();
  }
}

async function tokenise(entry, handler) {
  const tokens = new Tokens(handler);
  for await (const chunk of entryText(entry)) {
    tokens.feed(chunk);
    if (handler.stopped) return;
  }
  tokens.end();
}

/** The shared strings as ExcelJS keeps them: a text, a rich text ({ richText: [{ text }] }) or null. */
async function sharedStrings(entry) {
  const out = [];
  let text = null;
  let richText = [];
  await tokenise(entry, {
    open(name) {
      if (name === 'si') {
        richText = [];
        text = null;
      } else if (name === 't') text = null;
    },
    text(value) {
      text = text ? text + value : value;
    },
    close(name) {
      if (name === 'r') {
        richText.push({ text });
        text = null;
      } else if (name === 'si') {
        out.push(richText.length ? { richText } : text);
        richText = [];
        text = null;
      }
    },
  });
  return out;
}

function xmlDecode(text) {
  return text.replace(/&([a-z]*);/g, (c) => ({ '&lt;': '<', '&gt;': '>', '&amp;': '&', '&apos;': "'", '&quot;': '"' })[c] ?? c);
}

/** Column number of a plain cell address (A1 … XFD1048576). */
function column(ref) {
  if (typeof ref !== 'string' || !/^[A-Z]{1,3}[0-9]+$/.test(ref)) fail();
  let col = 0;
  for (let i = 0; i < ref.length && ref.charCodeAt(i) >= 65; i++) col = col * 26 + ref.charCodeAt(i) - 64;
  return col > 16_384 ? fail() : col;
}

/** A cell's text as the worker reports it (ExcelJS's value, then its text). */
function cellText(c, strings) {
  if (c.f) {
    // A shared formula's followers: the general reader's answer.
    if (c.f.text === '') fail();
    const result = c.v ? (c.t === 'str' ? xmlDecode(c.v.text) : parseFloat(c.v.text)) : undefined;
    // ExcelJS keeps a formula's result only when it is truthy; the cell's text is then that of an object.
    return result ? String(result) : '[object Object]';
  }
  if (!c.v) return '';
  switch (c.t) {
    case 's': {
      if (!strings) fail();
      const value = strings[parseInt(c.v.text, 10)];
      if (value === null || value === undefined) return '';
      return typeof value === 'string' ? value : value.richText.map((r) => r.text).join('');
    }
    case 'inlineStr':
    case 'str':
      return xmlDecode(c.v.text);
    case 'e':
      return '';
    case 'b':
      return parseInt(c.v.text, 10) !== 0 ? '1' : '0';
    default:
      return String(parseFloat(c.v.text));
  }
}

async function worksheet(entry, strings, maxRows, maxCols) {
  const rows = [];
  let inRows = false;
  let row = null;
  let c = null;
  let current = null;
  const handler = {
    stopped: false,
    tooManyRows: false,
    open(name, a) {
      switch (name) {
        case 'sheetData':
          inRows = true;
          break;
        case 'row':
          if (inRows) row = { number: parseInt(a.r, 10), cells: new Array(maxCols).fill('') };
          break;
        case 'c':
          if (row) c = { ref: a.r, t: a.t };
          break;
        case 'f':
          if (c) current = c.f = { text: '' };
          break;
        case 'v':
        case 'is':
        case 't':
          if (c) current = c.v = { text: '' };
          break;
      }
    },
    text(value) {
      if (current) current.text += value;
    },
    close(name) {
      if (name === 'sheetData') inRows = false;
      else if (name === 'row') {
        if (!row) fail();
        if (row.number > maxRows + 1) {
          handler.tooManyRows = true;
          handler.stopped = true;
          return;
        }
        rows[row.number - 1] = row.cells;
        row = null;
      } else if (name === 'c' && row && c) {
        const col = column(c.ref);
        if (col <= maxCols) row.cells[col - 1] = cellText(c, strings).trim();
        c = null;
      }
    },
  };
  await tokenise(entry, handler);
  if (handler.tooManyRows) return { tooManyRows: true };
  for (let i = 0; i < rows.length; i++) rows[i] ??= [];
  return { rows };
}

/**
 * Reads the first sheet; throws NotHandled when the workbook needs the general reader, TooLarge
 * when an entry inflates (or says it does) past `maxEntryBytes`.
 */
export async function readXlsxFast(buffer, maxRows, maxCols, maxEntryBytes) {
  const entries = zipEntries(buffer, maxEntryBytes);
  let strings;
  let rels = false;
  let sheet;
  const waiting = [];
  for (const entry of entries) {
    if (entry.name === 'xl/_rels/workbook.xml.rels') rels = true;
    else if (entry.name === 'xl/sharedStrings.xml') strings = await sharedStrings(entry);
    else if (/xl\/worksheets\/sheet\d+[.]xml/.test(entry.name)) {
      // A sheet met after the shared strings and the relationships is read at once; earlier ones wait for the end.
      if (strings && rels) {
        sheet = entry;
        break;
      }
      waiting.push(entry);
    }
  }
  sheet ??= waiting[0];
  if (!sheet) return { rows: [] };
  return worksheet(sheet, strings, maxRows, maxCols);
}

// The general reader's input. ExcelJS's streaming reader inflates every entry it meets and parks a
// sheet met before the shared strings and the workbook's relationships in a temporary file until
// they come. It is given instead a zip rebuilt from the upload's central directory holding only
// what it reads, measured first, in an order that needs no temporary file.

const RELS = 'xl/_rels/workbook.xml.rels';
const STRINGS = 'xl/sharedStrings.xml';
const WORKBOOK = 'xl/workbook.xml';
const SHEET = /xl\/worksheets\/sheet\d+[.]xml/;

const broken = () => {
  throw new Unreadable();
};

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
    entries.push({ name: buf.toString('utf8', p + 46, p + 46 + nameLen), method, crc: buf.readUInt32LE(p + 16), size, local, data: buf.subarray(start, start + stored) });
    p = extraEnd + buf.readUInt16LE(p + 32);
  }
  return entries.sort((a, b) => a.local - b.local);
}

/** A small entry written by us (stored, not deflated). */
function own(name, text) {
  const data = Buffer.from(text);
  return { name, method: 0, crc: zlib.crc32(data), size: data.length, data };
}

/** A zip of the entries, in this order, with plain headers (no zip64, no data descriptors). */
function writeZip(entries) {
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
    rels ?? own(RELS, '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"/>'),
    ...(workbook ? [workbook] : []),
    strings ?? own(STRINGS, '<sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"/>'),
    ...(sheet ? [sheet] : []),
  ]);
}
