import { describe, expect, it } from 'vitest';
import en from '../../i18n/mail.en.json';
import es from '../../i18n/mail.es.json';
import {
  emptyMailDraft,
  formatSize,
  mailDraftIsEmpty,
  mailDraftToBody,
  validateMailDraft,
} from './draft';

const t = (key: string, opts?: Record<string, unknown>) =>
  `${key}${opts ? JSON.stringify(opts) : ''}`;

function keys(obj: unknown, prefix = ''): string[] {
  if (typeof obj !== 'object' || obj === null) return [prefix];
  return Object.entries(obj).flatMap(([k, v]) => keys(v, prefix ? `${prefix}.${k}` : k));
}

describe('mail draft', () => {
  it('checks subject, body and CC like the server', () => {
    expect(validateMailDraft(emptyMailDraft(), t)).toEqual({
      subject: ['mail.errors.subject'],
      text: ['mail.errors.body'],
    });
    const ok = {
      ...emptyMailDraft(),
      subject: ' Aviso ',
      html: '<p>Hola&nbsp;</p>',
      cc: 'a@b.cl; c@d.cl',
    };
    expect(validateMailDraft(ok, t)).toEqual({});
    expect(validateMailDraft({ ...ok, html: '<p><br></p>' }, t)).toEqual({
      text: ['mail.errors.body'],
    });
    expect(validateMailDraft({ ...ok, cc: 'a@b.cl; malo' }, t)).toEqual({
      CCRecipient: ['mail.errors.cc{"address":"malo"}'],
    });
  });

  it('builds the request body and tells an untouched draft', () => {
    const file = {
      name: 'ab12.pdf',
      originalName: 'Guía.pdf',
      size: 2048,
      mime: 'application/pdf',
      url: 'http://x/api/v2/mail/file/ab12.pdf',
    };
    const d = { subject: ' Aviso ', html: '<p>Hola</p>', cc: 'a@b.cl', files: [file] };
    expect(mailDraftToBody(d)).toEqual({
      subject: 'Aviso',
      text: '<p>Hola</p>',
      CCRecipient: 'a@b.cl',
      files: ['ab12.pdf'],
    });
    expect(mailDraftIsEmpty(emptyMailDraft())).toBe(true);
    expect(mailDraftIsEmpty({ ...emptyMailDraft(), html: '<p>x</p>' })).toBe(false);
    expect(formatSize(10)).toBe('1 KB');
    expect(formatSize(2048)).toBe('2 KB');
    expect(formatSize(5 * 1024 * 1024)).toBe('5 MB');
    expect(formatSize(1.5 * 1024 * 1024, 'es')).toBe('1,5 MB');
    expect(formatSize(1.5 * 1024 * 1024, 'en')).toBe('1.5 MB');
  });

  it('has the same texts in Spanish and English', () => {
    expect(keys(en).sort()).toEqual(keys(es).sort());
  });
});
