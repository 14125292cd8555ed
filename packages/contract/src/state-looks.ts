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
const GREY = '#9E9E9E';

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

/**
 * A student's last access, in the order of LOGGED_TIME_LABELS: never, within a day, within a
 * week, longer ago. Mi agenda's "no access" reasons take the colour of their group.
 */
export const LAST_ACCESS_LOOKS = {
  never: { color: GREY, glyph: '○' },
  day: { color: GREEN, glyph: '●' },
  week: { color: AMBER, glyph: '◑' },
  older: { color: RED, glyph: '◌' },
} as const satisfies Record<string, StateLook>;
export type LastAccessGroup = keyof typeof LAST_ACCESS_LOOKS;

/** The last-access group of a student `days` whole days after his last access (null: never). */
export const lastAccessGroup = (days: number | null): LastAccessGroup =>
  days === null ? 'never' : days < 1 ? 'day' : days < 7 ? 'week' : 'older';

export const STATE_LOOKS = {
  ticketStatus: TICKET_STATUS_LOOKS,
  priority: PRIORITY_LOOKS,
  attemptResult: ATTEMPT_RESULT_LOOKS,
  studentState: STUDENT_STATE_LOOKS,
  lastAccess: LAST_ACCESS_LOOKS,
} as const;
export type StateKind = keyof typeof STATE_LOOKS;

/**
 * The count cards' colours, one per figure, on every screen and PDF: a state's own colour where
 * the figure counts a state (open tickets green, closed red, active students green).
 */
export const FIGURE_COLOURS = {
  created: '#1E88E5',
  total: '#006C8D',
  open: TICKET_STATUS_LOOKS.open.color,
  closed: TICKET_STATUS_LOOKS.closed.color,
  active: STUDENT_STATE_LOOKS.active.color,
  resign: STUDENT_STATE_LOOKS.resigned.color,
  /** Never signed in; not synchronised. */
  inactive: LAST_ACCESS_LOOKS.never.color,
  unsynced: GREY,
} as const;
export type CountedFigure = keyof typeof FIGURE_COLOURS;

/** The look of a catalogue value by its key; undefined for a value without one (added by staff). */
export function stateLook(kind: StateKind, key: string | null | undefined): StateLook | undefined {
  const looks: Record<string, StateLook> = STATE_LOOKS[kind];
  return key && Object.hasOwn(looks, key) ? looks[key] : undefined;
}
