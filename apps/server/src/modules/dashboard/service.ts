import {
  DASHBOARD_MSG,
  LOGGED_TIME_COLORS,
  LOGGED_TIME_LABELS,
  paletteColors,
  PROGRESS_COLORS,
  PROGRESS_LABELS,
  STATUS_COLORS,
  STATUS_DATASETS,
  STUDENT_STATE_COLORS,
  STUDENT_STATES,
  stateLook,
  ticketAgeText,
  type StateKind,
  type ChartData,
  type CourseOverview,
  type DailyTicketCard,
  type DailyTicketCharts,
  type FollowStudentCard,
  type OperatorDayRow,
  type StudentOnActivities,
  type StudentsOnActivitiesPage,
  type TicketRangeReport,
} from '@sigaf/contract';
import type { AuthUser } from '../../http/auth.js';
import { pageMeta } from '../../db/pagination.js';
import { notFound } from '../../http/errors.js';
import type { DashboardRepository } from './repository.js';
import { dayEnd, dayStart, type ProgressRow, type Scope, type TicketDimension } from './sql.js';
import type { StudentFiguresRepository } from './student-figures.js';

export type TicketCount = 'total' | 'today' | 'open' | 'closed';
export type ProgressKind = 'graded' | 'completed';

const round1 = (n: number) => Math.round(n * 10) / 10;
const repeat = (color: string, n: number) => Array.from({ length: n }, () => color);

/** The catalogues whose values are states with a look of their own (STATE_LOOKS). */
const STATE_OF: Partial<Record<TicketDimension, StateKind>> = {
  status: 'ticketStatus',
  priority: 'priority',
};

/** One dataset over labelled rows: a state in its own colour (by key), any other value from the palette. */
function single(
  rows: Array<{ label: string; n: number; key?: string | null }>,
  kind?: StateKind,
): ChartData {
  const palette = paletteColors(rows.length);
  return {
    labels: rows.map((r) => r.label),
    datasets: [
      {
        data: rows.map((r) => r.n),
        backgroundColor: rows.map((r, i) => (kind && stateLook(kind, r.key)?.color) || palette[i]!),
      },
    ],
  };
}

function openClosed(rows: Array<{ label: string; open: number; closed: number }>): ChartData {
  const n = rows.length;
  return {
    labels: rows.map((r) => r.label),
    datasets: [
      {
        label: STATUS_DATASETS.open,
        data: rows.map((r) => r.open),
        backgroundColor: repeat(STATUS_COLORS.open, n),
      },
      {
        label: STATUS_DATASETS.closed,
        data: rows.map((r) => r.closed),
        backgroundColor: repeat(STATUS_COLORS.closed, n),
      },
    ],
  };
}

/** "Realizado" / "No realizado" percentages per row; a row nobody has to do is 0 / 0. */
function progressChart(rows: ProgressRow[], kind: ProgressKind): ChartData {
  const done = rows.map((r) =>
    r.expected ? round1((100 * (kind === 'graded' ? r.graded : r.completed)) / r.expected) : 0,
  );
  const n = rows.length;
  return {
    labels: rows.map((r) => r.label),
    datasets: [
      { label: PROGRESS_LABELS.done, data: done, backgroundColor: repeat(PROGRESS_COLORS.done, n) },
      {
        label: PROGRESS_LABELS.notDone,
        data: done.map((d, i) => (rows[i]!.expected ? round1(100 - d) : 0)),
        backgroundColor: repeat(PROGRESS_COLORS.notDone, n),
      },
    ],
  };
}

/** Which classrooms of a course a user may follow (the follow-up's tutor scoping); throws a 403 otherwise. */
export interface ClassroomPolicy {
  courseScope(
    actor: AuthUser,
    courseId: number,
    classroomId?: number,
  ): Promise<{ courseId: number; classroomIds?: number[] }>;
}

/** Dashboard (Estadística), follow-up by classroom and the daily ticket reports. */
export class DashboardService {
  constructor(
    private readonly repo: DashboardRepository,
    private readonly students: StudentFiguresRepository,
    private readonly policy?: ClassroomPolicy,
  ) {}

  /** Brings the course's cached student figures up to date (before another module reads course_follow_up_rows). */
  freshFigures(courseId: number): Promise<void> {
    return this.students.fresh(courseId);
  }

  async requireCourse(courseId: number): Promise<void> {
    if (!(await this.repo.courseExists(courseId))) throw notFound(DASHBOARD_MSG.courseNotFound);
  }

  /**
   * The course (must exist) and, when given, the classroom by id or description (must exist).
   * With `actor`, the follow-up's scoping applies: a tutor gets only their classrooms (403 for another).
   */
  async scope(courseId: number, classroomRef?: string, actor?: AuthUser): Promise<Scope> {
    await this.requireCourse(courseId);
    let classroomId: number | undefined;
    if (classroomRef !== undefined) {
      const classroom = await this.repo.findClassroom(classroomRef);
      if (!classroom) throw notFound(DASHBOARD_MSG.classroomNotFound);
      classroomId = classroom.id;
    }
    const allowed =
      actor && this.policy
        ? await this.policy.courseScope(actor, courseId, classroomId)
        : undefined;
    if (classroomId !== undefined) return { courseId, classroomId };
    return allowed?.classroomIds ? { courseId, classroomIds: allowed.classroomIds } : { courseId };
  }

  /**
   * The whole course, for the dashboard (Estadística). A course id that does not exist is an
   * empty course there, not a 404: the original client asks for course 2 on load whatever
   * courses exist (docs/development/original-api.md#hard-coded-values) and the original server answered zeros. Only staff
   * who may read every course reach the dashboard (PERMISSIONS.dashboardRead), and whether a
   * course id exists is no secret, so nothing is disclosed.
   */
  wholeCourse(courseId: number): Scope {
    return { courseId };
  }

  // Tickets (dashboard: an unknown course counts nothing, see wholeCourse) ----------------------

  ticketCount(courseId: number, kind: TicketCount): Promise<number> {
    return this.repo.countTickets(courseId, kind);
  }

  /** Status and priority values are drawn in their own colours (STATE_LOOKS), as everywhere else. */
  async catalogueChart(courseId: number, dimension: TicketDimension): Promise<ChartData> {
    return single(await this.repo.ticketsPerCatalogue(courseId, dimension), STATE_OF[dimension]);
  }

  async motiveChart(courseId: number): Promise<ChartData> {
    return single(
      (await this.repo.motiveShares(courseId)).map((r) => ({ label: r.label, n: r.pct })),
    );
  }

  async ageChart(courseId: number): Promise<ChartData> {
    return single(
      (await this.repo.ticketsPerAge(courseId)).map((r) => ({
        label: ticketAgeText(r.days),
        n: r.n,
      })),
    );
  }

  async statusOperatorChart(courseId: number): Promise<ChartData> {
    return openClosed(
      (await this.repo.statusPerOperator(courseId)).map((r) => ({
        ...r,
        label: r.label ?? DASHBOARD_MSG.unassigned,
      })),
    );
  }

  async statusMotiveChart(courseId: number): Promise<ChartData> {
    return openClosed(await this.repo.statusPerMotive(courseId));
  }

  /** Estadística's whole course in one answer: the same values its 17 routes give one by one. */
  async courseOverview(courseId: number): Promise<CourseOverview> {
    const scope = this.wholeCourse(courseId);
    const [total, lastDay, open, close, card] = await Promise.all([
      this.ticketCount(courseId, 'total'),
      this.ticketCount(courseId, 'today'),
      this.ticketCount(courseId, 'open'),
      this.ticketCount(courseId, 'closed'),
      this.card(scope),
    ]);
    const [source, type, status, priority, motive, age, statusOperator, statusMotive] =
      await Promise.all([
        this.catalogueChart(courseId, 'source'),
        this.catalogueChart(courseId, 'type'),
        this.catalogueChart(courseId, 'status'),
        this.catalogueChart(courseId, 'priority'),
        this.motiveChart(courseId),
        this.ageChart(courseId),
        this.statusOperatorChart(courseId),
        this.statusMotiveChart(courseId),
      ]);
    const [studentStatus, lastAccess, progress, progressDone] = await Promise.all([
      this.statusChart(scope),
      this.loggedTimeChart(scope),
      this.progressChart(scope, 'graded'),
      this.progressChart(scope, 'completed'),
    ]);
    return {
      counts: { total, 'last-day': lastDay, open, close },
      card,
      charts: {
        source,
        type,
        status,
        priority,
        motive,
        age,
        statusOperator,
        statusMotive,
        studentStatus,
        lastAccess,
        progress,
        progressDone,
      },
    };
  }

  // Enrolled students --------------------------------------------------------------------------

  async statusChart(scope: Scope): Promise<ChartData> {
    const counts = await this.students.stageCounts(scope);
    return {
      labels: [...STUDENT_STATES],
      datasets: [{ data: counts, backgroundColor: [...STUDENT_STATE_COLORS] }],
    };
  }

  async loggedTimeChart(scope: Scope): Promise<ChartData> {
    const counts = await this.students.lastAccessCounts(scope);
    return {
      labels: [...LOGGED_TIME_LABELS],
      datasets: [{ data: counts, backgroundColor: [...LOGGED_TIME_COLORS] }],
    };
  }

  card(scope: Scope): Promise<FollowStudentCard> {
    return this.students.card(scope);
  }

  async progressChart(scope: Scope, kind: ProgressKind): Promise<ChartData> {
    return progressChart(await this.students.progress(scope), kind);
  }

  /** Per activity of one section (by id, key or description). */
  async activityProgressChart(
    scope: Scope,
    sectionRef: string,
    kind: ProgressKind,
  ): Promise<ChartData> {
    const section = await this.repo.findSection(sectionRef);
    if (!section) throw notFound(DASHBOARD_MSG.sectionNotFound);
    return progressChart(await this.students.progress(scope, section.id), kind);
  }

  /** Every student of the course (or the tutor's classrooms) with their state on the chosen activities (local or Moodle ids). */
  async studentsOnActivities(
    courseId: number,
    ids: number[],
    actor?: AuthUser,
  ): Promise<StudentOnActivities[]>;
  /** One page of them and the page's place. */
  async studentsOnActivities(
    courseId: number,
    ids: number[],
    actor: AuthUser | undefined,
    page: { page: number; perPage: number },
  ): Promise<StudentsOnActivitiesPage>;
  async studentsOnActivities(
    courseId: number,
    ids: number[],
    actor?: AuthUser,
    page?: { page: number; perPage: number },
  ) {
    const [scope, activities] = await Promise.all([
      this.scope(courseId, undefined, actor),
      this.students.activitiesOf(courseId, ids),
    ]);
    if (!activities.length) throw notFound(DASHBOARD_MSG.activityNotFound);
    const { rows, total } = await this.students.studentsOnActivities(
      scope,
      activities.map((a) => a.id),
      page,
    );
    const students = rows.map(({ stage, ...r }) => ({
      ...r,
      status: STUDENT_STATES[stage] ?? STUDENT_STATES[0],
    }));
    if (!page) return students;
    return { students, meta: pageMeta(page.page, page.perPage, total) };
  }

  // Reports per day or range -------------------------------------------------------------------
  // `day` null: no day chosen (the original client sends the segment `undefined` when a day chip
  // is un-toggled, docs/development/original-api.md#reports): nothing to count. `to`: the range's
  // last day (both included; the original client asks for one day). The course must exist.

  async dayCard(courseId: number, day: string | null, to = day): Promise<DailyTicketCard> {
    await this.requireCourse(courseId);
    if (day === null || to === null) return { created: 0, total: 0, open: 0, closed: 0 };
    return this.repo.dayCard(courseId, day, to);
  }

  async dayCharts(courseId: number, day: string | null, to = day): Promise<DailyTicketCharts> {
    await this.requireCourse(courseId);
    const counts =
      day === null || to === null
        ? null
        : await this.repo.ticketsPerCatalogues(courseId, { from: dayStart(day), to: dayEnd(to) });
    const chart = (d: TicketDimension) => ({ chartData: single(counts?.[d] ?? [], STATE_OF[d]) });
    return {
      priority: chart('priority'),
      type: chart('type'),
      motive: chart('motive'),
      source: chart('source'),
      status: chart('status'),
    };
  }

  async operatorTable(
    courseId: number,
    day: string | null,
    to = day,
  ): Promise<{ table: OperatorDayRow[]; chartData: ChartData }> {
    await this.requireCourse(courseId);
    if (day === null || to === null) return { table: [], chartData: single([]) };
    const [table, outcomes] = await Promise.all([
      this.repo.operatorDay(courseId, day, to),
      this.repo.attemptsPerOutcome(courseId, day, to),
    ]);
    return { table, chartData: single(outcomes, 'attemptResult') };
  }

  /** The ticket report of a range of days (both included): card, charts and production in one answer. */
  async rangeReport(courseId: number, from: string, to: string): Promise<TicketRangeReport> {
    const [card, charts, operators] = await Promise.all([
      this.dayCard(courseId, from, to),
      this.dayCharts(courseId, from, to),
      this.operatorTable(courseId, from, to),
    ]);
    return { from, to, card, charts, operators };
  }
}
