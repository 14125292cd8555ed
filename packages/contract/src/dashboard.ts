import type { PageMeta } from './envelope.js';
import type { StudentSummary } from './students.js';
import { LAST_ACCESS_LOOKS, STUDENT_STATE_LOOKS, TICKET_STATUS_LOOKS } from './state-looks.js';

/** Dashboard (Estadística), follow-up reports and daily ticket reports (docs/development/domain.md#dashboard and #reports; the screens: docs/development/screens.md#estadistica, #reports). */

export interface ChartDataset {
  label?: string;
  data: number[];
  backgroundColor: string[];
}

/** What every chart call answers in `_data.chartData` (Chart.js shape). */
export interface ChartData {
  labels: string[];
  datasets: ChartDataset[];
}

/** `_data` of follow-student-card and follow-student-classroom (docs/development/domain.md#figures). */
export interface FollowStudentCard {
  /** Synchronised, withdrawn (Renuncia activity finished). */
  resign: number;
  /** Synchronised, not withdrawn, accessed the course at least once. */
  active: number;
  /** Synchronised, not withdrawn, never accessed the course. */
  inactive: number;
  /** Matrícula inicial: every student enrolment, synchronised or not (resign + active + inactive + unsynced). */
  total: number;
  /** Of the matrícula, not (yet) confirmed by a Moodle sync: outside every other figure. */
  unsynced: number;
}

/** The card's labels where the server writes them (the PDF); the screens have the same in their translations. */
export const FOLLOW_CARD_LABELS = {
  total: 'Matrícula inicial',
  resign: 'Renuncias',
  active: 'Han ingresado',
  inactive: 'Nunca han ingresado',
  unsynced: 'Sin sincronizar',
} as const;

/**
 * What Reportes › Reporte de tickets' update counts, said under its cards on the screen and in the PDF: the
 * cards are the whole course at the end of the range, the charts only the tickets created in it.
 */
export const TICKET_REPORT_SCOPE = {
  day: 'Las tarjetas cuentan todos los tickets del curso al final del día (los nuevos, los creados ese día); los gráficos, solo los tickets creados ese día, con su estado actual.',
  range:
    'Las tarjetas cuentan todos los tickets del curso al final del período (los nuevos, los creados en él); los gráficos, solo los tickets creados en el período, con su estado actual.',
} as const;

/** `_data` of GET /reports/courses/{c}/data-card/{date}. */
export interface DailyTicketCard {
  /** Tickets created that day. */
  created: number;
  /** Tickets created up to the end of that day. */
  total: number;
  /** Of those, not closed by the end of that day. */
  open: number;
  /** Of those, closed by the end of that day (closing_date <= end of day). */
  closed: number;
}

/** `_data` of GET /reports/courses/{c}/type-ticket/{date}: one chart per dimension, over that day's tickets. */
export interface DailyTicketCharts {
  priority: { chartData: ChartData };
  type: { chartData: ChartData };
  motive: { chartData: ChartData };
  source: { chartData: ChartData };
  status: { chartData: ChartData };
}

/** One row of `_data.table` of GET /reports/courses/{c}/table-operator/{date}. */
export interface OperatorDayRow {
  operatorId: number;
  operator: string;
  /** Distinct tickets the operator logged attempts on that day. */
  tickets: number;
  /** Of those tickets, how many are closed now. */
  closed: number;
  /** Contact attempts logged that day. */
  attempts: number;
}

/** `_data` of GET /reports/courses/{c}/range?from=&to=: the same figures over a range of days (both included; `from` <= `to`). */
export interface TicketRangeReport {
  from: string;
  to: string;
  card: DailyTicketCard;
  charts: DailyTicketCharts;
  operators: { table: OperatorDayRow[]; chartData: ChartData };
}

/** One activity row of a student in GET /activities/{ids}/course-registered-users/{course}. */
export interface StudentActivityRow {
  activityId: number;
  idActivityMoodle: number | null;
  description: string;
  statusMoodle: string | null;
  qualificationMoodle: string | null;
  /** 0 incomplete, 1 complete, 2 pass, 3 fail; null without a row. */
  completionState: number | null;
  grade: number | null;
}

/** One student (enrolment id) of GET /activities/{ids}/course-registered-users/{course}. */
export interface StudentOnActivities extends StudentSummary {
  classroomId: number | null;
  classroom: string | null;
  /** Pre/Post test form: A for an even RUT check digit, B for odd or K. */
  form: 'A' | 'B';
  status: StudentState;
  activities: StudentActivityRow[];
}

/** A page of GET /activities/{ids}/course-registered-users/{course}?page=&perPage= (students in name order). */
export interface StudentsOnActivitiesPage {
  students: StudentOnActivities[];
  meta: PageMeta;
}

/** A student's state from the course's Renuncia (withdrawal) activity. */
export const STUDENT_STATES = ['Activo', 'Renuncia en curso', 'Renunciado'] as const;
export type StudentState = (typeof STUDENT_STATES)[number];
/** The state written for a student Moodle has not confirmed yet (workbooks): in no state of STUDENT_STATES. */
export const UNSYNCED_STATE = 'Sin sincronizar';
/** A student's state as the workbooks write it: unsynchronised students have none of the three. */
export const studentStateText = (
  stage: number,
  synced: boolean,
): StudentState | typeof UNSYNCED_STATE =>
  synced ? (STUDENT_STATES[stage] ?? STUDENT_STATES[0]) : UNSYNCED_STATE;
export const STUDENT_STATE_COLORS = [
  STUDENT_STATE_LOOKS.active.color,
  STUDENT_STATE_LOOKS.resigning.color,
  STUDENT_STATE_LOOKS.resigned.color,
] as const;

export const LOGGED_TIME_LABELS = [
  'Nunca',
  'Menos de un día',
  'Menos de una semana',
  'Más de una semana',
] as const;
export const LOGGED_TIME_COLORS = [
  LAST_ACCESS_LOOKS.never.color,
  LAST_ACCESS_LOOKS.day.color,
  LAST_ACCESS_LOOKS.week.color,
  LAST_ACCESS_LOOKS.older.color,
] as const;

export const PROGRESS_LABELS = { done: 'Realizado', notDone: 'No realizado' } as const;
export const PROGRESS_COLORS = { done: '#5cb85c', notDone: '#D32F2F' } as const;

export const STATUS_DATASETS = { open: 'Abierto', closed: 'Cerrado' } as const;
export const STATUS_COLORS = {
  open: TICKET_STATUS_LOOKS.open.color,
  closed: TICKET_STATUS_LOOKS.closed.color,
} as const;

/** Colours of catalogue charts, cycled in catalogue order. */
export const CHART_PALETTE = [
  '#1E88E5',
  '#43A047',
  '#FB8C00',
  '#E53935',
  '#8E24AA',
  '#00ACC1',
  '#FDD835',
  '#6D4C41',
  '#3949AB',
  '#7CB342',
  '#F4511E',
  '#546E7A',
] as const;

export const paletteColors = (n: number): string[] =>
  Array.from({ length: n }, (_, i) => CHART_PALETTE[i % CHART_PALETTE.length]!);

export const DASHBOARD_MSG = {
  courseNotFound: 'El curso no existe.',
  classroomNotFound: 'El aula no existe.',
  sectionNotFound: 'La sección no existe.',
  activityNotFound: 'Ninguna de las actividades indicadas pertenece al curso.',
  unassigned: 'Sin asignar',
} as const;

// ---------------------------------------------------------------------------------------------
// Report screens and their exports (docs/development/domain.md#reports, docs/development/screens.md#reports)

export const REPORT_MSG = {
  invalidClassroom: 'Aula no válida.',
  invalidSearch: 'Búsqueda no válida.',
  rangeIncomplete: 'Indique el rango completo: desde y hasta.',
  studentNotFound: 'El alumno no tiene tickets en este curso.',
  tooManyTickets: (max: number) =>
    `El curso tiene más de ${max.toLocaleString('es-CL')} tickets; acote la búsqueda.`,
} as const;

/** The ticket history workbook (docs/development/domain.md#reports): group row, then one column per field. */
export const TICKET_HISTORY_GROUPS: ReadonlyArray<[label: string, columns: number]> = [
  ['IDENTIFICADOR', 2],
  ['ANTECEDENTES DE ALUMNO', 5],
  ['ANTECEDENTES DE TICKET', 10],
  ['ANTECEDENTES DE INTENTOS DE CONTACTO', 5],
];
export const TICKET_HISTORY_HEADER = [
  'N°',
  'CÓDIGO TICKET',
  'RUT',
  'NOMBRE',
  'APELLIDOS',
  'AULA',
  'ÚLTIMO ACCESO',
  'ORIGEN',
  'TIPO',
  'MOTIVO',
  'PRIORIDAD',
  'CREADOR',
  'OPERADOR',
  'ESTADO',
  'FECHA DE CREACIÓN',
  'FECHA DE CIERRE',
  'ANTIGÜEDAD',
  'ESTADO DE ÚLTIMO INTENTO',
  'COMENTARIO',
  'FECHA DE REGISTRO',
  'OPERADOR',
  'HISTÓRICO DE CONTACTOS',
] as const;

/** The roster workbook (docs/development/domain.md#reports). */
export const ROSTER_HEADER = [
  'N°',
  'RUT',
  'NOMBRE',
  'APELLIDO PATERNO',
  'APELLIDO MATERNO',
  'E-MAIL',
  'AULA',
  'ROL',
  'CURSO',
  'ÚLTIMO ACCESO',
  'ESTADO',
] as const;

/** The per-student ticket workbook: one row per contact attempt (a ticket without attempts: one row). */
export const STUDENT_TICKETS_HEADER = [
  'RUT',
  'NOMBRE',
  'APELLIDOS',
  'AULA',
  'CÓDIGO TICKET',
  'ESTADO',
  'MOTIVO',
  'TIPO',
  'PRIORIDAD',
  'OPERADOR',
  'FECHA DE CREACIÓN',
  'FECHA DE CIERRE',
  'N° INTENTO',
  'FECHA INTENTO',
  'RESULTADO',
  'REGISTRADO POR',
  'COMENTARIO',
] as const;

export interface StudentTicketAttempt {
  id: number;
  createdAt: string;
  outcome: string;
  /** The result's catalogue key (its colour and glyph: STATE_LOOKS.attemptResult); null for one staff added. */
  outcomeKey: string | null;
  operator: string;
  comment: string | null;
}

export interface StudentTicketEntry {
  id: number;
  ticketCode: string;
  status: string;
  closed: boolean;
  motive: string;
  type: string;
  priority: string;
  /** The priority's catalogue key (STATE_LOOKS.priority); null for one staff added. */
  priorityKey: string | null;
  operator: string | null;
  createdAt: string;
  closingDate: string | null;
  attempts: StudentTicketAttempt[];
}

/** One student of GET /reports/courses/{c}/student-tickets: every ticket of their enrolment with its attempts. */
export interface StudentTicketsRow {
  enrolmentId: number;
  rut: string;
  name: string;
  lastName: string;
  motherLastName: string | null;
  classroom: string | null;
  tickets: StudentTicketEntry[];
}

/** One student of a page of GET /reports/courses/{c}/student-tickets: who, and how many tickets (and open ones). */
export type StudentTicketsSummary = Omit<StudentTicketsRow, 'tickets'> & {
  tickets: number;
  openTickets: number;
};

/**
 * A page of GET /reports/courses/{c}/student-tickets (students in name order); each student's
 * tickets come from GET /reports/courses/{c}/student-tickets/{enrolment}.
 */
export interface StudentTicketsPage {
  students: StudentTicketsSummary[];
  meta: PageMeta;
}
/** Students a page of the per-student ticket report holds unless `perPage` says otherwise. */
export const STUDENT_TICKETS_PER_PAGE = 10;

/**
 * How far an installation is on its first steps (GET /api/v2/setup-progress, administrators): the
 * home page shows them until all are done.
 */
export interface SetupProgress {
  /** A platform has a Moodle address and token. */
  moodle: boolean;
  /** Active courses, and those of them synchronised with Moodle at least once. */
  courses: number;
  syncedCourses: number;
  /** Enrolments in active courses. */
  students: number;
  /** Active operators and tutors. */
  staff: number;
}

/**
 * Estadística's whole course in one answer (GET /api/v2/dashboard/courses/:id): the four ticket
 * counts (keyed as their count routes), the student card and every chart (keyed as the web
 * client's chart paths), each the very value its own route answers.
 */
export interface CourseOverview {
  counts: Record<'total' | 'last-day' | 'open' | 'close', number>;
  card: FollowStudentCard;
  charts: Record<
    | 'source'
    | 'type'
    | 'status'
    | 'priority'
    | 'motive'
    | 'age'
    | 'statusOperator'
    | 'statusMotive'
    | 'studentStatus'
    | 'lastAccess'
    | 'progress'
    | 'progressDone',
    ChartData
  >;
}
