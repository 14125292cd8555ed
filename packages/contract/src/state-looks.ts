/**
 * One look per state, for every chart, chip, list and PDF (docs/development/figures-and-formats.md):
 * a colour, and a glyph that says the same for staff who do not tell the colours apart. The
 * state's name is always written beside both.
 */
export interface StateLook {
  color: string;
  glyph: string;
}

const GREEN = '#5cb85c';
const AMBER = '#F9A825';
const RED = '#D32F2F';

/** Ticket status by catalogue key: Abierto, Cerrado. */
export const TICKET_STATUS_LOOKS = {
  open: { color: GREEN, glyph: '○' },
  closed: { color: RED, glyph: '●' },
} as const satisfies Record<string, StateLook>;

/** Priority by catalogue key: Alta red, Media amber, Baja green. */
export const PRIORITY_LOOKS = {
  high: { color: RED, glyph: '▲' },
  medium: { color: AMBER, glyph: '◆' },
  low: { color: GREEN, glyph: '▼' },
} as const satisfies Record<string, StateLook>;

/** Result of a contact attempt by catalogue key: Exitoso, Fallido. */
export const ATTEMPT_RESULT_LOOKS = {
  success: { color: GREEN, glyph: '✓' },
  failure: { color: RED, glyph: '✗' },
} as const satisfies Record<string, StateLook>;

/** A student's state, in the order of STUDENT_STATES: Activo, Renuncia en curso, Renunciado. */
export const STUDENT_STATE_LOOKS = {
  active: { color: GREEN, glyph: '●' },
  resigning: { color: AMBER, glyph: '◐' },
  resigned: { color: RED, glyph: '✕' },
} as const satisfies Record<string, StateLook>;

export const STATE_LOOKS = {
  ticketStatus: TICKET_STATUS_LOOKS,
  priority: PRIORITY_LOOKS,
  attemptResult: ATTEMPT_RESULT_LOOKS,
  studentState: STUDENT_STATE_LOOKS,
} as const;
export type StateKind = keyof typeof STATE_LOOKS;

/** The look of a catalogue value by its key; undefined for a value without one (added by staff). */
export function stateLook(kind: StateKind, key: string | null | undefined): StateLook | undefined {
  const looks: Record<string, StateLook> = STATE_LOOKS[kind];
  return key && Object.hasOwn(looks, key) ? looks[key] : undefined;
}
