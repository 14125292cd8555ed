import {
  formatNumber,
  parseCcList,
  type FieldErrors,
  type MailUploadResult,
} from '@sigaf/contract';
import type { MailRequestBody } from './api';

/** What the composer edits; the parent keeps it (e.g. in its form) and sends it with the ticket. */
export interface MailDraft {
  subject: string;
  /** The body as HTML. */
  html: string;
  /** Addresses separated by `;`. */
  cc: string;
  files: MailUploadResult[];
}

export const emptyMailDraft = (): MailDraft => ({ subject: '', html: '', cc: '', files: [] });

const plainText = (html: string) =>
  html
    .replace(/<[^>]*>/g, ' ')
    .replace(/&nbsp;/g, ' ')
    .trim();

/** Nothing written yet (the original sends the mail only when there is a subject or a body). */
export function mailDraftIsEmpty(d: MailDraft): boolean {
  return !d.subject.trim() && !plainText(d.html) && !d.files.length;
}

/** The request body of /mail/single and /mail/massive. */
export function mailDraftToBody(d: MailDraft): MailRequestBody {
  return {
    subject: d.subject.trim(),
    text: d.html,
    CCRecipient: d.cc,
    files: d.files.map((f) => f.name),
  };
}

/** Client-side checks, keyed like the server's 422 (subject, text, CCRecipient). `t` translates. */
export function validateMailDraft(
  d: MailDraft,
  t: (key: string, opts?: Record<string, unknown>) => string,
): FieldErrors {
  const errors: FieldErrors = {};
  if (!d.subject.trim()) errors.subject = [t('mail.errors.subject')];
  if (!plainText(d.html)) errors.text = [t('mail.errors.body')];
  const cc = parseCcList(d.cc);
  if (cc.invalid !== null) errors.CCRecipient = [t('mail.errors.cc', { address: cc.invalid })];
  return errors;
}

/** A file's size, "12 KB" or "1,5 MB" (a decimal comma in Spanish). */
export function formatSize(bytes: number, language?: string): string {
  if (bytes < 1024 * 1024) return `${Math.max(1, Math.ceil(bytes / 1024))} KB`;
  return `${formatNumber(bytes / 1024 / 1024, language)} MB`;
}
