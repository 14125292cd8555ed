/** Chilean RUT: parse any common spelling, validate the módulo 11 check digit, format as 12.345.678-9. */

export interface Rut {
  body: number;
  dv: string;
}

export function computeDv(body: number): string {
  let sum = 0;
  let factor = 2;
  let n = body;
  while (n > 0) {
    sum += (n % 10) * factor;
    n = Math.floor(n / 10);
    factor = factor === 7 ? 2 : factor + 1;
  }
  const r = 11 - (sum % 11);
  return r === 11 ? '0' : r === 10 ? 'K' : String(r);
}

/** Parses `12345678-9`, `12.345.678-9`, `123456789`, lower-case k, surrounding spaces. Null when malformed. */
export function parseRut(input: string | null | undefined): Rut | null {
  if (typeof input !== 'string') return null;
  const clean = input.trim().replace(/[.\s]/g, '').toUpperCase();
  const m = /^(\d{1,9})-?([\dK])$/.exec(clean);
  if (!m) return null;
  const body = Number(m[1]);
  if (!Number.isSafeInteger(body) || body < 1) return null;
  return { body, dv: m[2]! };
}

export function isValidRut(input: string | null | undefined): boolean {
  const r = parseRut(input);
  return r !== null && computeDv(r.body) === r.dv;
}

export function formatRut(r: Rut): string {
  const digits = String(r.body).replace(/\B(?=(\d{3})+(?!\d))/g, '.');
  return `${digits}-${r.dv}`;
}

/** Normalises a valid RUT to `12.345.678-9`; null when invalid. */
export function normalizeRut(input: string | null | undefined): string | null {
  const r = parseRut(input);
  if (!r || computeDv(r.body) !== r.dv) return null;
  return formatRut(r);
}
