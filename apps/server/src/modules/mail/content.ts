import path from 'node:path';
import {
  fillPlaceholders,
  MAIL_ATTACHMENT_TYPES,
  type MailAttachmentExt,
  type MailPlaceholder,
} from '@sigaf/contract';
import sanitizeHtml from 'sanitize-html';

/** Message content: HTML sanitising, the plain-text part, placeholders, the layout; attachment checks. */

const SANITIZE: sanitizeHtml.IOptions = {
  allowedTags: ['p', 'br', 'b', 'strong', 'i', 'em', 'u', 'ul', 'ol', 'li', 'h1', 'h2', 'h3', 'a'],
  allowedAttributes: { a: ['href'] },
  allowedSchemes: ['http', 'https', 'mailto'],
  allowProtocolRelative: false,
  disallowedTagsMode: 'discard',
  // Editors write lines as <div>: keep them as paragraphs.
  transformTags: { div: 'p' },
};

/** Keeps basic formatting only (p, br, b, strong, i, em, u, lists, h1-h3, links); scripts, styles and handlers go. */
export function sanitizeBody(html: string): string {
  return sanitizeHtml(html, SANITIZE).trim();
}

export function escapeHtml(value: string): string {
  return value.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!,
  );
}

const ENTITIES: Record<string, string> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: ' ',
};

function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, e: string) => {
    if (e[0] === '#') {
      const code =
        e[1] === 'x' || e[1] === 'X' ? parseInt(e.slice(2), 16) : parseInt(e.slice(1), 10);
      return Number.isFinite(code) && code > 0 && code < 0x110000
        ? String.fromCodePoint(code)
        : whole;
    }
    return ENTITIES[e.toLowerCase()] ?? whole;
  });
}

/** The plain-text part of a sanitised body. */
export function htmlToText(html: string): string {
  const text = html
    .replace(/\r?\n/g, ' ')
    .replace(/<a\s+href="([^"]*)"[^>]*>(.*?)<\/a>/gi, (_, href: string, label: string) => {
      const plain = label.replace(/<[^>]+>/g, '');
      const url = decodeEntities(href);
      return decodeEntities(plain).trim() === url || url.startsWith('mailto:')
        ? plain
        : `${plain} (${href})`;
    })
    .replace(/<br\s*\/?>/gi, '\n')
    .replace(/<(ul|ol)>/gi, '\n')
    .replace(/<li>/gi, '\n- ')
    .replace(/<\/(p|h1|h2|h3|ul|ol)>/gi, '\n\n')
    .replace(/<[^>]+>/g, '');
  return decodeEntities(text)
    .split('\n')
    .map((l) => l.replace(/[ \t]+/g, ' ').trim())
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

export type PlaceholderValues = Record<MailPlaceholder, string>;

/**
 * Subject and body for one student: placeholders filled (escaped in HTML), the text part derived.
 * The body is sanitised again after filling, so that a value in a link (`<a href="{nombre}">` and a
 * student named `javascript:…`) meets the same link check as the template itself.
 */
export function personalise(subject: string, html: string, values: PlaceholderValues) {
  const body = sanitizeBody(fillPlaceholders(html, values, escapeHtml));
  return {
    subject: fillPlaceholders(subject, values)
      .replace(/[\r\n]+/g, ' ')
      .trim()
      .slice(0, 255),
    html: body,
    text: htmlToText(body),
  };
}

/** The message around the body (the original's "ticket" template): a light frame and the course as signature. */
export function layout(bodyHtml: string, course: string | null): string {
  const footer = course
    ? `<p style="margin:24px 0 0;color:#666;font-size:12px">${escapeHtml(course)}</p>`
    : '';
  return (
    '<!doctype html><html lang="es"><head><meta charset="utf-8"></head>' +
    '<body style="margin:0;padding:16px;background:#f5f5f5;font-family:Arial,Helvetica,sans-serif;color:#222">' +
    '<div style="max-width:640px;margin:0 auto;background:#fff;padding:24px;border-top:4px solid #006C8D">' +
    `${bodyHtml}${footer}</div></body></html>`
  );
}

export function layoutText(text: string, course: string | null): string {
  return course ? `${text}\n\n--\n${course}` : text;
}

// ---------------------------------------------------------------------------------------------
// Attachments

/**
 * Invisible format characters (Unicode Cf): the bidirectional controls that show `\u202Egnp.exe.txt`
 * as `txt.exe.png` (U+061C, U+200E–U+200F, U+202A–U+202E, U+2066–U+2069), zero-width spaces, word
 * joiners, the BOM, soft hyphens, tags... Zero-width joiner and non-joiner stay: words in Persian
 * or Indic scripts and emoji sequences are spelt with them.
 */
const INVISIBLE = /(?![\u200C\u200D])\p{Cf}/gu;

/** A file name safe to show and to put in a MIME header: no path, no control, invisible or reserved characters. */
export function safeFileName(name: string): string {
  const base = name.split(/[/\\]/).pop() ?? '';
  let clean = base
    .normalize('NFC')
    .replace(INVISIBLE, '')
    // eslint-disable-next-line no-control-regex -- control characters are what this removes
    .replace(/[\u0000-\u001f\u007f-\u009f<>:"|?*]/g, '_')
    .replace(/^[.\s]+/, '')
    .replace(/\s+/g, ' ')
    .trim();
  if (clean.length > 150) {
    const ext = path.extname(clean).slice(0, 10);
    clean = clean.slice(0, 150 - ext.length) + ext;
  }
  return clean || 'archivo';
}

export function extensionOf(name: string): string {
  return path.extname(name).slice(1).toLowerCase();
}

const startsWith = (buf: Buffer, bytes: number[]) => bytes.every((b, i) => buf[i] === b);

function isZip(buf: Buffer) {
  return startsWith(buf, [0x50, 0x4b, 0x03, 0x04]) || startsWith(buf, [0x50, 0x4b, 0x05, 0x06]);
}

/** Text: no NUL and no control bytes besides tab, line breaks and form feed. */
function isText(buf: Buffer) {
  for (const b of buf)
    if (b === 0 || (b < 0x20 && b !== 0x09 && b !== 0x0a && b !== 0x0d && b !== 0x0c) || b === 0x7f)
      return false;
  return true;
}

/** An Office Open XML file: a zip with the part folder of its kind (word/, xl/, ppt/). */
function isOoxml(buf: Buffer, folder: string) {
  return (
    isZip(buf) &&
    buf.includes(Buffer.from('[Content_Types].xml')) &&
    buf.includes(Buffer.from(`${folder}/`))
  );
}

const SNIFF: Record<MailAttachmentExt, (buf: Buffer) => boolean> = {
  pdf: (b) => startsWith(b, [0x25, 0x50, 0x44, 0x46, 0x2d]),
  png: (b) => startsWith(b, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  jpg: (b) => startsWith(b, [0xff, 0xd8, 0xff]),
  jpeg: (b) => startsWith(b, [0xff, 0xd8, 0xff]),
  gif: (b) =>
    b.subarray(0, 6).toString('latin1') === 'GIF87a' ||
    b.subarray(0, 6).toString('latin1') === 'GIF89a',
  docx: (b) => isOoxml(b, 'word'),
  xlsx: (b) => isOoxml(b, 'xl'),
  pptx: (b) => isOoxml(b, 'ppt'),
  txt: isText,
  csv: isText,
  zip: isZip,
};

/**
 * The type of an attachment from its extension AND its content: 'type' when the extension is
 * not allowed, 'content' when the bytes are not what the extension says.
 */
export function checkAttachment(
  name: string,
  content: Buffer,
): { ext: MailAttachmentExt; mime: string } | { error: 'type' | 'content' } {
  const ext = extensionOf(name);
  if (!Object.hasOwn(MAIL_ATTACHMENT_TYPES, ext)) return { error: 'type' };
  const known = ext as MailAttachmentExt;
  if (!SNIFF[known](content)) return { error: 'content' };
  return { ext: known, mime: MAIL_ATTACHMENT_TYPES[known] };
}
