/**
 * Phone numbers as staff type them (spaces, dashes, dots, parentheses, with or without +56 or 56)
 * made into links: `tel:` for a call, `https://wa.me/` for WhatsApp. Chilean numbers have 9 digits
 * after the country code +56 (mobiles start with 9).
 */

/** The digits of a Chilean number in E.164 without the "+" (569XXXXXXXX), or null when it is not one. */
export function chileanE164(raw: string | null | undefined): string | null {
  if (!raw) return null;
  const trimmed = raw.trim();
  if (!/^\+?[\d\s\-.()]+$/.test(trimmed)) return null;
  let digits = trimmed.replace(/\D/g, '');
  if (digits.length === 11 && digits.startsWith('56')) digits = digits.slice(2);
  return digits.length === 9 && /^[2-9]/.test(digits) ? `56${digits}` : null;
}

/** A Chilean mobile (569XXXXXXXX), the only kind WhatsApp reaches, or null. */
export function chileanMobile(raw: string | null | undefined): string | null {
  const e164 = chileanE164(raw);
  return e164?.startsWith('569') ? e164 : null;
}

/** Between two numbers in one field: "/", ";", ",", "|", a line break, or the word "y", "o" or "ó". */
const BETWEEN_NUMBERS = /\s*(?:[/;,|\n]|\s(?:y|o|ó)\s)\s*/i;

/**
 * One piece as one or more Chilean numbers: the whole of it, else its parts between hyphens or
 * spaces, each a Chilean number ("9 1234 5678 - 22 345 6789"); null when it cannot be so cut.
 */
function chileanRun(piece: string): string[] | null {
  if (chileanE164(piece)) return [piece];
  const parts = piece.split(/(?=[\s-])/);
  // Each way to cut, from the left: the first run of parts that is a number, then the rest.
  for (let i = 1; i < parts.length; i++) {
    const head = parts
      .slice(0, i)
      .join('')
      .replace(/^[\s-]+|[\s-]+$/g, '');
    if (!chileanE164(head)) continue;
    const rest = chileanRun(
      parts
        .slice(i)
        .join('')
        .replace(/^[\s-]+/, ''),
    );
    if (rest) return [head, ...rest];
  }
  return null;
}

/**
 * The numbers staff typed in one phone field, each as typed: "912345678 / 223456789",
 * "9 1234 5678 - 22 345 6789" or "+56 9 1234 5678 y 2 2345 6789" are two; spaces, dots, hyphens
 * and parentheses inside a number keep it one. Pieces without a digit are left out.
 */
export function phoneNumbers(raw: string | null | undefined): string[] {
  return (raw ?? '')
    .split(BETWEEN_NUMBERS)
    .map((p) => p.trim())
    .filter((p) => /\d/.test(p))
    .flatMap((p) => chileanRun(p) ?? [p]);
}

/** The `tel:` link of one number: Chilean as +56…; another as typed, digits and a leading "+" only (at most 15 digits, E.164). */
function oneTelHref(number: string): string | null {
  const digits = number.replace(/[^\d+]/g, '').replace(/(?!^)\+/g, '');
  // A Chilean number with a note beside it ("912345678 (mamá)") too.
  const e164 = chileanE164(number) ?? chileanE164(digits);
  if (e164) return `tel:+${e164}`;
  const n = digits.replace('+', '').length;
  return n >= 3 && n <= 15 ? `tel:${digits}` : null;
}

/**
 * `tel:+56…` for a field holding one Chilean number; another number as typed, digits and a
 * leading "+" only; null without digits, and null for a field holding several numbers (never one
 * wrong number joined from two: telLinks gives one link each).
 */
export function telHref(raw: string | null | undefined): string | null {
  const numbers = phoneNumbers(raw);
  return numbers.length === 1 ? oneTelHref(numbers[0]!) : null;
}

/** A link per number in a phone field (phoneNumbers), each with the number as typed; numbers without a link left out. */
export function telLinks(raw: string | null | undefined): Array<{ number: string; href: string }> {
  return phoneNumbers(raw).flatMap((number) => {
    const href = oneTelHref(number);
    return href ? [{ number, href }] : [];
  });
}

/** The WhatsApp link that opens a chat with a Chilean mobile with the message typed in, or null. */
export function whatsAppHref(raw: string | null | undefined, text: string): string | null {
  const mobile = chileanMobile(raw);
  return mobile ? `https://wa.me/${mobile}?text=${encodeURIComponent(text)}` : null;
}
