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

/** `tel:+56…` for a Chilean number; another number as typed, digits and a leading "+" only; null without digits. */
export function telHref(raw: string | null | undefined): string | null {
  const e164 = chileanE164(raw);
  if (e164) return `tel:+${e164}`;
  const digits = (raw ?? '').replace(/[^\d+]/g, '').replace(/(?!^)\+/g, '');
  return /\d{3,}/.test(digits) ? `tel:${digits}` : null;
}

/** The WhatsApp link that opens a chat with a Chilean mobile with the message typed in, or null. */
export function whatsAppHref(raw: string | null | undefined, text: string): string | null {
  const mobile = chileanMobile(raw);
  return mobile ? `https://wa.me/${mobile}?text=${encodeURIComponent(text)}` : null;
}
