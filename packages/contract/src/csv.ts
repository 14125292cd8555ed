/** A cell of a CSV the product writes: text, a number, or empty. */
export type CsvCell = string | number | null | undefined;

/** Text a spreadsheet would read as a formula (or a DDE command) when it opens the file. */
const FORMULA_START = /^[=+\-@\t\r]/;
/** A phone number in international form ("+56 9 1234 5678"): a plus, digits and spaces, nothing a formula could run. */
const PHONE = /^\+\d[\d ]*$/;

/**
 * One cell as written: a text that a spreadsheet would take for a formula (it begins with `=`,
 * `+`, `-`, `@`, a tab or a carriage return) gets a leading `'`, so that a name such as
 * `=HYPERLINK(…)` stays text in whoever opens the export. Numbers (typed as numbers, negative
 * ones too) are written as they are, and so are phone numbers ("+569…": no apostrophe for Excel
 * to show). Quoted when it holds the separator, a quote or a line break.
 */
export function csvCell(value: CsvCell): string {
  if (value === null || value === undefined) return '';
  const text =
    typeof value === 'number' || PHONE.test(value) || !FORMULA_START.test(value)
      ? String(value)
      : `'${value}`;
  return /[;"\n\r]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** Every CSV the product writes (web and server): `;`-separated, CRLF, UTF-8 with a BOM so Excel reads accents. */
export function csvText(header: string[], rows: CsvCell[][]): string {
  return `\uFEFF${[header, ...rows].map((r) => r.map(csvCell).join(';')).join('\r\n')}\r\n`;
}
