/**
 * Moodle's REST transport takes PHP form fields: nested arrays and objects as bracket keys
 * (`users[0][username]=x`, `options[ids][0]=4`), booleans as 0/1. Absent (undefined or null)
 * values are left out, so Moodle applies its defaults.
 */

export type MoodleParamValue =
  | string
  | number
  | boolean
  | null
  | undefined
  | MoodleParamValue[]
  | { [key: string]: MoodleParamValue };
export type MoodleParams = Record<string, MoodleParamValue>;

function scalar(value: string | number | boolean): string {
  if (typeof value === 'boolean') return value ? '1' : '0';
  if (typeof value === 'number') {
    if (!Number.isFinite(value))
      throw new TypeError(`Moodle parameters must be finite numbers, got ${value}`);
    return String(value);
  }
  return value;
}

/** Flattens parameters to the ordered list of `[field, value]` pairs PHP will rebuild. */
export function encodeFields(params: MoodleParams): Array<[string, string]> {
  const out: Array<[string, string]> = [];
  const walk = (key: string, value: MoodleParamValue) => {
    if (value === undefined || value === null) return;
    if (Array.isArray(value)) {
      value.forEach((v, i) => walk(`${key}[${i}]`, v));
    } else if (typeof value === 'object') {
      for (const [k, v] of Object.entries(value)) walk(`${key}[${k}]`, v);
    } else {
      out.push([key, scalar(value)]);
    }
  };
  for (const [k, v] of Object.entries(params)) walk(k, v);
  return out;
}

export function toFormBody(fields: Array<[string, string]>): string {
  return new URLSearchParams(fields).toString();
}

/** How many form fields one value takes. */
export function countFields(value: MoodleParamValue): number {
  return encodeFields({ x: value }).length;
}

/**
 * PHP's max_input_vars (at least 5000 on a Moodle site) silently drops fields past the limit.
 * One request of the client stays at this many fields or fewer.
 */
export const MAX_FIELDS_PER_REQUEST = 2000;

/** Splits items into batches whose encoded fields stay within the budget (one item never splits). */
export function batchByFields<T extends MoodleParamValue>(
  items: readonly T[],
  budget = MAX_FIELDS_PER_REQUEST,
  maxItems = Infinity,
): T[][] {
  const batches: T[][] = [];
  let current: T[] = [];
  let used = 0;
  for (const item of items) {
    const n = countFields(item);
    if (current.length && (used + n > budget || current.length >= maxItems)) {
      batches.push(current);
      current = [];
      used = 0;
    }
    current.push(item);
    used += n;
  }
  if (current.length) batches.push(current);
  return batches;
}
