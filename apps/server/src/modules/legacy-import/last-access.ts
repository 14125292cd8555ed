/**
 * SIGAF 1.x stored Moodle's last access as Moodle printed it in Spanish: a date, "Nunca", or the
 * time elapsed when it synchronised ("3 días 4 horas", "1 día", "5 horas 10 minutos",
 * "2 años 40 días", "ahora"). The elapsed form is read as an approximate instant counted back from
 * the moment the row was last written (its updated_at, the synchronisation that wrote the text).
 */

const UNIT_SECONDS: Array<[RegExp, number]> = [
  [/^a(ñ|n)(o|os)$|^anios?$/, 365 * 86_400],
  [/^mes(es)?$/, 30 * 86_400],
  [/^semanas?$/, 7 * 86_400],
  [/^d(í|i)as?$/, 86_400],
  [/^horas?$|^h$/, 3_600],
  [/^minutos?$|^mins?$/, 60],
  [/^segundos?$|^segs?$|^s$/, 1],
];

/** Seconds elapsed written in the Spanish relative form, or null when the text is not one. */
export function relativeSeconds(text: string): number | null {
  const t = text.trim().toLowerCase().normalize('NFC');
  if (t === 'ahora') return 0;
  const words = t
    .replace(/,/g, ' ')
    .split(/\s+/)
    .filter((w) => w && w !== 'y' && w !== 'hace');
  if (!words.length || words.length % 2) return null;
  let total = 0;
  for (let i = 0; i < words.length; i += 2) {
    const n = Number(words[i]!.replace(',', '.'));
    if (!/^\d+$/.test(words[i]!) || !Number.isFinite(n)) return null;
    const unit = UNIT_SECONDS.find(([re]) => re.test(words[i + 1]!));
    if (!unit) return null;
    total += n * unit[1];
  }
  return total;
}

/**
 * The wall-clock time (`yyyy-mm-dd hh:mm:ss`) `text` before `reference` (a wall-clock text), or
 * null when `text` is not a relative form. Wall-clock arithmetic: approximate by nature.
 */
export function lastAccessFromRelative(text: string, reference: string): string | null {
  const secs = relativeSeconds(text);
  if (secs === null) return null;
  const m = /^(\d{4})-(\d{2})-(\d{2})(?: (\d{2}):(\d{2})(?::(\d{2}))?)?$/.exec(reference);
  if (!m) return null;
  const at =
    Date.UTC(+m[1]!, +m[2]! - 1, +m[3]!, +(m[4] ?? 0), +(m[5] ?? 0), +(m[6] ?? 0)) - secs * 1000;
  return new Date(at).toISOString().replace('T', ' ').slice(0, 19);
}
