import {
  chileDateTime,
  DASHBOARD_MSG,
  dayRangeText,
  fileSlug,
  FIGURE_COLOURS,
  fileDay,
  REPORT_MSG,
  stateLook,
  ROSTER_HEADER,
  FOLLOW_CARD_LABELS,
  studentStateText,
  STUDENT_TICKETS_HEADER,
  TICKET_HISTORY_GROUPS,
  TICKET_HISTORY_HEADER,
  TICKET_REPORT_SCOPE,
  ticketAgeText,
  type StudentTicketsRow,
  type StudentTicketsPage,
  type StudentTicketEntry,
} from '@sigaf/contract';
import { pageMeta } from '../../db/pagination.js';
import { AppError, notFound } from '../../http/errors.js';
import type { DashboardService } from '../dashboard/service.js';
import { PdfReport } from './pdf.js';
import type { DayRange, ReportRepository } from './repository.js';
import { reportWorkbook, type XlsxCell } from '../../lib/workbook.js';

/** Largest course a report document is built for (tickets). */
export const REPORT_MAX_TICKETS = 50_000;

export interface ReportFile {
  filename: string;
  body: Buffer;
}

/** A moment, or the text standing for it (Moodle's own, or "Nunca"). */
const momentOr = (at: Date | string | null, text: string): XlsxCell => (at ? new Date(at) : text);

/** The report documents: ticket history and roster workbooks, per-student tickets, and the three report PDFs. */
export class ReportService {
  constructor(
    private readonly repo: ReportRepository,
    private readonly dashboard: DashboardService,
  ) {}

  private async course(courseId: number) {
    const course = await this.repo.course(courseId);
    if (!course) throw notFound(DASHBOARD_MSG.courseNotFound);
    return course;
  }

  private async bounded(courseId: number, range?: DayRange) {
    const course = await this.course(courseId);
    if ((await this.repo.countTickets(courseId, range)) > REPORT_MAX_TICKETS)
      throw new AppError(413, REPORT_MSG.tooManyTickets(REPORT_MAX_TICKETS));
    return course;
  }

  /** Named after the course and the range (its tickets), or today (every ticket). */
  private ticketHistoryName(course: { description: string }, range?: DayRange) {
    const when = range ? dayRangeText(range.from, range.to) : fileDay();
    return `reporte-historico-tickets-${fileSlug(course.description)}-${when}.xlsx`;
  }

  /** Whether the ticket history workbook can be made (the course exists and is not too large): its file name. */
  async ticketHistoryReady(courseId: number, range?: DayRange): Promise<string> {
    return this.ticketHistoryName(await this.bounded(courseId, range), range);
  }

  /** "REPORTE HISTÓRICO DE TICKET CURSO …" (docs/development/domain.md#reports): every ticket, or those created within `range`. */
  async ticketHistoryXlsx(courseId: number, range?: DayRange): Promise<ReportFile> {
    const course = await this.bounded(courseId, range);
    const rows = await this.repo.ticketHistory(courseId, range);
    const body = await reportWorkbook({
      sheet: 'Tickets',
      title: `REPORTE HISTÓRICO DE TICKET CURSO ${course.description.toUpperCase()}${range ? ` · ${dayRangeText(range.from, range.to, ' AL ')}` : ''}`,
      groups: TICKET_HISTORY_GROUPS,
      header: TICKET_HISTORY_HEADER,
      rows: rows.map((t, i): XlsxCell[] => [
        i + 1,
        t.code,
        t.rut,
        t.name,
        t.lastNames,
        t.classroom ?? 'Sin aula',
        momentOr(t.lastAccessAt, t.lastAccess),
        t.source,
        t.type,
        t.motive,
        t.priority,
        t.creator,
        t.operator,
        t.status,
        new Date(t.createdAt),
        t.closedAt && new Date(t.closedAt),
        ticketAgeText(t.ageDays),
        t.lastOutcome,
        t.lastComment,
        t.lastAt && new Date(t.lastAt),
        t.lastOperator,
        t.history,
      ]),
      formats: ['integer'],
      widths: [
        6, 18, 14, 16, 22, 14, 18, 14, 18, 18, 12, 20, 20, 12, 18, 18, 12, 20, 36, 18, 20, 60,
      ],
    });
    return { filename: this.ticketHistoryName(course, range), body };
  }

  /** The course roster (RUT, names, e-mail, classroom, role, course), optionally of one classroom. */
  async rosterXlsx(courseId: number, classroomRef?: string): Promise<ReportFile> {
    const course = await this.course(courseId);
    const scope = await this.dashboard.scope(courseId, classroomRef);
    const rows = await this.repo.roster(courseId, scope.classroomId);
    const room = classroomRef !== undefined ? (rows[0]?.classroom ?? classroomRef) : null;
    const body = await reportWorkbook({
      sheet: 'Matrícula',
      title: `NÓMINA CURSO ${course.description.toUpperCase()}${room ? ` — ${room.toUpperCase()}` : ''}`,
      header: ROSTER_HEADER,
      rows: rows.map((r, i) => [
        i + 1,
        r.rut,
        r.name,
        r.lastName,
        r.motherLastName,
        r.email,
        r.classroom ?? 'Sin aula',
        r.profile,
        r.course,
        momentOr(r.lastAccessAt, r.lastAccess),
        studentStateText(r.stage, r.synced),
      ]),
      formats: ['integer'],
      widths: [6, 14, 18, 18, 18, 28, 14, 14, 28, 18, 18],
    });
    return {
      filename: `nomina-${fileSlug(course.description)}${room ? `-${fileSlug(room)}` : ''}-${fileDay()}.xlsx`,
      body,
    };
  }

  async studentTickets(courseId: number, search?: string): Promise<StudentTicketsRow[]> {
    await this.bounded(courseId);
    return this.repo.studentTickets(courseId, search);
  }

  /** One page of the students with tickets, with their numbers (the report screen reads it a page at a time). */
  async studentTicketsPage(
    courseId: number,
    search: string | undefined,
    page: number,
    perPage: number,
  ): Promise<StudentTicketsPage> {
    await Promise.all([this.course(courseId), this.dashboard.freshFigures(courseId)]);
    const { rows, total } = await this.repo.studentTicketsPage(courseId, search, { page, perPage });
    return { students: rows, meta: pageMeta(page, perPage, total) };
  }

  /** One student's tickets in the course, with their attempts (opened from the report's list). */
  async studentTicketsOf(courseId: number, enrolmentId: number): Promise<StudentTicketEntry[]> {
    await this.course(courseId);
    const [row] = await this.repo.studentTickets(courseId, undefined, enrolmentId);
    if (!row) throw notFound(REPORT_MSG.studentNotFound);
    return row.tickets;
  }

  /** One row per contact attempt (a ticket without attempts: one row), grouped by student. */
  async studentTicketsXlsx(courseId: number, search?: string): Promise<ReportFile> {
    const course = await this.course(courseId);
    const students = await this.studentTickets(courseId, search);
    const rows: XlsxCell[][] = [];
    for (const s of students) {
      const lastNames = [s.lastName, s.motherLastName].filter(Boolean).join(' ');
      for (const t of s.tickets) {
        const base: XlsxCell[] = [
          s.rut,
          s.name,
          lastNames,
          s.classroom ?? 'Sin aula',
          t.ticketCode,
          t.status,
          t.motive,
          t.type,
          t.priority,
          t.operator,
          new Date(t.createdAt),
          t.closingDate && new Date(t.closingDate),
        ];
        if (t.attempts.length === 0) rows.push([...base, 0, null, '', '', '']);
        t.attempts.forEach((a, n) =>
          rows.push([...base, n + 1, new Date(a.createdAt), a.outcome, a.operator, a.comment]),
        );
      }
    }
    const body = await reportWorkbook({
      sheet: 'Tickets por alumno',
      title: `TICKETS POR ALUMNO CURSO ${course.description.toUpperCase()}`,
      header: STUDENT_TICKETS_HEADER,
      rows,
      widths: [14, 16, 22, 14, 18, 12, 18, 18, 12, 20, 18, 18, 10, 18, 18, 20, 40],
    });
    return {
      filename: `tickets-por-alumno-${fileSlug(course.description)}-${fileDay()}.xlsx`,
      body,
    };
  }

  /** Reporte de ticket of a range of days (one day: from = to): the data card, the range's charts and the operators' production. */
  async ticketRangePdf(courseId: number, { from, to }: DayRange): Promise<ReportFile> {
    const course = await this.course(courseId);
    const { card, charts, operators } = await this.dashboard.rangeReport(courseId, from, to);
    const oneDay = from === to;
    const pdf = new PdfReport(
      'Reporte de ticket',
      `${course.category} · ${course.description} · ${dayRangeText(from, to, ' al ')}`,
    );
    pdf.heading(oneDay ? 'Actualización del día' : 'Actualización del período');
    pdf.cards([
      ['Tickets nuevos', `+${card.created}`, FIGURE_COLOURS.created],
      ['Tickets totales', card.total, FIGURE_COLOURS.total],
      ['Tickets abiertos', card.open, FIGURE_COLOURS.open],
      ['Tickets cerrados', card.closed, FIGURE_COLOURS.closed],
    ]);
    pdf.paragraph(TICKET_REPORT_SCOPE[oneDay ? 'day' : 'range']);
    pdf.bars('Ticket según estado', charts.status.chartData);
    pdf.bars('Ticket según origen', charts.source.chartData);
    pdf.bars('Ticket según tipo', charts.type.chartData);
    pdf.bars('Ticket según prioridad', charts.priority.chartData);
    pdf.bars('Ticket según motivo', charts.motive.chartData);
    pdf.heading(oneDay ? 'Producción del día' : 'Producción del período');
    pdf.table(
      ['Operador', 'Tickets trabajados', 'Tickets resueltos', 'Intentos de contacto'],
      operators.table.map((r) => [r.operator, r.tickets, r.closed, r.attempts]),
      [0.46, 0.18, 0.18, 0.18],
    );
    pdf.bars('Intentos según estado', operators.chartData);
    return {
      filename: `reporte-ticket-${fileSlug(course.description)}-${dayRangeText(from, to)}.pdf`,
      body: await pdf.finish(),
    };
  }

  /** Every student's tickets with their contact attempts. */
  async studentTicketsPdf(courseId: number, search?: string): Promise<ReportFile> {
    const course = await this.course(courseId);
    const students = await this.studentTickets(courseId, search);
    const tickets = students.reduce((n, s) => n + s.tickets.length, 0);
    const attempts = students.reduce(
      (n, s) => n + s.tickets.reduce((m, t) => m + t.attempts.length, 0),
      0,
    );
    const pdf = new PdfReport(
      'Reporte de tickets por alumno',
      `${course.category} · ${course.description}${search ? ` · búsqueda "${search}"` : ''}`,
    );
    pdf.cards([
      ['Alumnos con tickets', students.length],
      ['Tickets', tickets],
      ['Intentos de contacto', attempts],
    ]);
    for (const s of students) {
      pdf.heading(
        `${s.rut} · ${[s.name, s.lastName, s.motherLastName].filter(Boolean).join(' ')} · ${s.classroom ?? 'Sin aula'}`,
      );
      for (const t of s.tickets) {
        pdf.table(
          ['Ticket', 'Estado', 'Prioridad', 'Motivo', 'Tipo', 'Creado', 'Cierre', 'Operador'],
          [
            [
              t.ticketCode,
              {
                text: t.status,
                colour: stateLook('ticketStatus', t.closed ? 'closed' : 'open')?.color,
              },
              { text: t.priority, colour: stateLook('priority', t.priorityKey)?.color },
              t.motive,
              t.type,
              chileDateTime(t.createdAt),
              t.closingDate ? chileDateTime(t.closingDate) : '',
              t.operator,
            ],
          ],
          [0.17, 0.1, 0.1, 0.14, 0.12, 0.13, 0.13, 0.11],
        );
        pdf.table(
          ['N°', 'Fecha', 'Resultado', 'Registrado por', 'Comentario'],
          t.attempts.map((a, n) => [
            n + 1,
            chileDateTime(a.createdAt),
            { text: a.outcome, colour: stateLook('attemptResult', a.outcomeKey)?.color },
            a.operator,
            a.comment,
          ]),
          [0.06, 0.17, 0.15, 0.2, 0.42],
        );
      }
    }
    return {
      filename: `tickets-por-alumno-${fileSlug(course.description)}-${fileDay()}.pdf`,
      body: await pdf.finish(),
    };
  }

  /** Seguimiento de alumnos of one classroom: card, students by status, progress per section (graded and done). */
  async followStudentPdf(courseId: number, classroomRef: string): Promise<ReportFile> {
    const course = await this.course(courseId);
    const scope = await this.dashboard.scope(courseId, classroomRef);
    const [card, status, graded, done, roster] = await Promise.all([
      this.dashboard.card(scope),
      this.dashboard.statusChart(scope),
      this.dashboard.progressChart(scope, 'graded'),
      this.dashboard.progressChart(scope, 'completed'),
      this.repo.roster(courseId, scope.classroomId, true),
    ]);
    const room = roster[0]?.classroom ?? classroomRef;
    const pdf = new PdfReport(
      'Reporte de seguimiento de alumnos',
      `${course.category} · ${course.description} · ${room}`,
    );
    // The screens' card (docs/development/domain.md#figures): the states of the chart below add up to
    // the matrícula less those not synchronised; Han ingresado + Nunca han ingresado = Activo + Renuncia en curso.
    pdf.cards([
      [FOLLOW_CARD_LABELS.total, card.total, FIGURE_COLOURS.total],
      [FOLLOW_CARD_LABELS.resign, card.resign, FIGURE_COLOURS.resign],
      [FOLLOW_CARD_LABELS.active, card.active, FIGURE_COLOURS.active],
      [FOLLOW_CARD_LABELS.inactive, card.inactive, FIGURE_COLOURS.inactive],
      [FOLLOW_CARD_LABELS.unsynced, card.unsynced, FIGURE_COLOURS.unsynced],
    ]);
    pdf.bars('Alumnos según estado', status);
    pdf.bars('Progreso de actividades calificadas según unidad (%)', graded, '%');
    pdf.bars('Progreso de actividades realizadas según unidad (%)', done, '%');
    pdf.heading('Nómina del aula');
    // The matrícula's students, those not synchronised included (no last access from Moodle yet).
    pdf.table(
      ['RUT', 'Nombre', 'E-mail', 'Rol', 'Último acceso'],
      roster.map((r) => [
        r.rut,
        [r.name, r.lastName, r.motherLastName].filter(Boolean).join(' '),
        r.email,
        r.profile,
        r.lastAccess,
      ]),
      [0.15, 0.3, 0.27, 0.12, 0.16],
    );
    return {
      filename: `seguimiento-${fileSlug(course.description)}-${fileSlug(room)}-${fileDay()}.pdf`,
      body: await pdf.finish(),
    };
  }
}
