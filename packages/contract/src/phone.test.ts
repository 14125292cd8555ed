import { describe, expect, it } from 'vitest';
import {
  chileanE164,
  chileanMobile,
  phoneNumbers,
  telHref,
  telLinks,
  whatsAppHref,
} from './phone.js';

describe('phone links', () => {
  it('normalises Chilean numbers to +56 whatever the prefix and separators', () => {
    for (const raw of [
      '912345678',
      '9 1234 5678',
      '+56 9 1234 5678',
      '56912345678',
      '+56-9-1234-5678',
      '(9) 1234.5678',
      ' +569 12345678 ',
    ]) {
      expect(chileanE164(raw), raw).toBe('56912345678');
      expect(chileanMobile(raw), raw).toBe('56912345678');
    }
    expect(chileanE164('22 345 6789')).toBe('56223456789');
  });

  it('a landline is no WhatsApp number; garbage and short numbers are nothing', () => {
    expect(chileanMobile('+56 2 2345 6789')).toBeNull();
    for (const raw of [
      null,
      '',
      '12345',
      'llamar tarde',
      '9123456789',
      '+54 9 11 2345 6789',
      '012345678',
    ])
      expect(chileanMobile(raw), String(raw)).toBeNull();
  });

  it('tel: for a call, wa.me with the message for WhatsApp', () => {
    expect(telHref('9 1234 5678')).toBe('tel:+56912345678');
    expect(telHref('+54 11 2345-6789')).toBe('tel:+541123456789');
    expect(telHref('sin teléfono')).toBeNull();
    expect(whatsAppHref('+56 9 1234 5678', 'Hola Ana, ¿cómo va el curso? 100% & más')).toBe(
      `https://wa.me/56912345678?text=${encodeURIComponent('Hola Ana, ¿cómo va el curso? 100% & más')}`,
    );
    expect(whatsAppHref('2 2345 6789', 'Hola')).toBeNull();
  });
});

describe('a phone field holding several numbers', () => {
  const mobile = 'tel:+56912345678';
  const landline = 'tel:+56223456789';

  it('one number stays one, whatever its spaces, dots, hyphens or prefix', () => {
    for (const raw of [
      '+56 9 1234 5678',
      '+56912345678',
      '912345678',
      '9 1234 5678',
      '9-1234-5678',
      '9.1234.5678',
      '(9) 1234-5678',
      '+56-9-1234-5678',
      '56 9 1234 5678',
    ]) {
      expect(phoneNumbers(raw), raw).toEqual([raw.trim()]);
      expect(telHref(raw), raw).toBe(mobile);
      expect(telLinks(raw), raw).toEqual([{ number: raw.trim(), href: mobile }]);
    }
    for (const raw of [
      '2 2345 6789',
      '22 345 6789',
      '+56 2 2345 6789',
      '2-2345-6789',
      '223456789',
      '(2) 2345.6789',
    ])
      expect(telHref(raw), raw).toBe(landline);
  });

  it('two numbers between "/", ";", ",", "y", "o", or a hyphen between whole numbers: one link each, never one joined', () => {
    const cases: Array<[string, string[]]> = [
      ['912345678 / 223456789', ['912345678', '223456789']],
      ['9 1234 5678 - 22 345 6789', ['9 1234 5678', '22 345 6789']],
      ['912345678-223456789', ['912345678', '223456789']],
      ['+56 9 1234 5678; +56 2 2345 6789', ['+56 9 1234 5678', '+56 2 2345 6789']],
      ['9 1234 5678, 2 2345 6789', ['9 1234 5678', '2 2345 6789']],
      ['9-1234-5678 y 2-2345-6789', ['9-1234-5678', '2-2345-6789']],
      ['+56912345678 o 223456789', ['+56912345678', '223456789']],
      ['9.1234.5678 / 9.8765.4321', ['9.1234.5678', '9.8765.4321']],
    ];
    for (const [raw, numbers] of cases) {
      expect(phoneNumbers(raw), raw).toEqual(numbers);
      expect(telHref(raw), raw).toBeNull();
      expect(chileanE164(raw), raw).toBeNull();
      expect(whatsAppHref(raw, 'Hola'), raw).toBeNull();
    }
    expect(telLinks('9 1234 5678 - 22 345 6789')).toEqual([
      { number: '9 1234 5678', href: mobile },
      { number: '22 345 6789', href: landline },
    ]);
    expect(telLinks('9.1234.5678 / 9.8765.4321').map((l) => l.href)).toEqual([
      mobile,
      'tel:+56987654321',
    ]);
  });

  it('digits that cannot be cut into numbers give no link rather than a wrong one', () => {
    for (const raw of ['912345678223456789', '22345678 912345678', '9 1234 5678 2 2345 678']) {
      expect(telHref(raw), raw).toBeNull();
      expect(telLinks(raw), raw).toEqual([]);
    }
  });

  it('a note beside a number, or a foreign number, keeps its link; text alone has none', () => {
    expect(telLinks('912345678 (mamá) / 987654321 (papá)').map((l) => l.href)).toEqual([
      mobile,
      'tel:+56987654321',
    ]);
    expect(telLinks('+54 11 2345-6789 / 912345678').map((l) => l.href)).toEqual([
      'tel:+541123456789',
      mobile,
    ]);
    expect(phoneNumbers('llamar tarde')).toEqual([]);
    expect(telLinks(null)).toEqual([]);
  });
});
