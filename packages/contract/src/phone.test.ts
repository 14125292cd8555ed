import { describe, expect, it } from 'vitest';
import { chileanE164, chileanMobile, telHref, whatsAppHref } from './phone.js';

describe('phone links', () => {
  it('normalises Chilean numbers to +56 whatever the prefix and separators', () => {
    for (const raw of ['912345678', '9 1234 5678', '+56 9 1234 5678', '56912345678', '+56-9-1234-5678', '(9) 1234.5678', ' +569 12345678 ']) {
      expect(chileanE164(raw), raw).toBe('56912345678');
      expect(chileanMobile(raw), raw).toBe('56912345678');
    }
    expect(chileanE164('22 345 6789')).toBe('56223456789');
  });

  it('a landline is no WhatsApp number; garbage and short numbers are nothing', () => {
    expect(chileanMobile('+56 2 2345 6789')).toBeNull();
    for (const raw of [null, '', '12345', 'llamar tarde', '9123456789', '+54 9 11 2345 6789', '012345678']) expect(chileanMobile(raw), String(raw)).toBeNull();
  });

  it('tel: for a call, wa.me with the message for WhatsApp', () => {
    expect(telHref('9 1234 5678')).toBe('tel:+56912345678');
    expect(telHref('+54 11 2345-6789')).toBe('tel:+541123456789');
    expect(telHref('sin teléfono')).toBeNull();
    expect(whatsAppHref('+56 9 1234 5678', 'Hola Ana, ¿cómo va el curso? 100% & más')).toBe(`https://wa.me/56912345678?text=${encodeURIComponent('Hola Ana, ¿cómo va el curso? 100% & más')}`);
    expect(whatsAppHref('2 2345 6789', 'Hola')).toBeNull();
  });
});
