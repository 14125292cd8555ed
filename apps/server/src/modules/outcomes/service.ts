import {
  ATTEMPT_MEDIUM_LABELS,
  chileDaysBetween,
  chileLocalToDate,
  chileParts,
  isAdminLike,
  OUTCOME_DEFAULT_DAYS,
  OUTCOME_DIMENSIONS,
  OUTCOME_MAX_DAYS,
  OUTCOME_MSG,
  OUTCOME_SMALL_SAMPLE,
  OUTCOME_SUGGESTION_MIN,
  type AttemptOutcome,
  type OutcomeGroup,
  type OutcomeReport,
  type OutcomeReportQuery,
  type OutcomeSuggestion,
  type OutcomeSimilarSuggestions,
  type SuggestedGroup,
  IDLE_GROUPS,
} from '@sigaf/contract';
import type { Database } from '../../db/database.js';
import type { AuthUser } from '../../http/auth.js';
import { AppError, forbidden, notFound } from '../../http/errors.js';
import { ownerScope, type TicketAccess } from '../tickets/access.js';
import {
  OutcomeRepository,
  SIMILAR_DIMENSIONS,
  type AttemptOutcomeRow,
  type OutcomeGroupRow,
} from './repository.js';
import { designEffect, differenceFrom, standardised, wilsonClustered } from './stats.js';
import { outcomeFileName, outcomeWorkbook } from './workbook.js';

const DAY_MS = 86_400_000;

/**
 * A Chilean day's contacts count in the report once this many days have passed since it: their
 * 7 days of outcome and their baseline's window (7 days before to 7 days after the day) have
 * closed, so the day's figures are final and the nightly keeper (keeper.ts) keeps them.
 */
export const OUTCOME_SETTLED_AFTER_DAYS = 8;

/** The last settled day (YYYY-MM-DD) at `now`. */
export function lastSettledDay(now = new Date()): string {
  const today = chileParts(now).day;
  return new Date(Date.parse(`${today}T12:00:00Z`) - OUTCOME_SETTLED_AFTER_DAYS * DAY_MS)
    .toISOString()
    .slice(0, 10);
}

const minDay = (a: string, b: string) => (a < b ? a : b);

/** The instants a span of Chilean days covers: [start of `from`, start of the day after `to`). */
function dayBounds(from: string, to: string) {
  const after = new Date(Date.parse(`${to}T12:00:00Z`) + DAY_MS).toISOString().slice(0, 10);
  return { from: chileLocalToDate(from, '00:00')!, to: chileLocalToDate(after, '00:00')! };
}

/**
 * An attempt's outcome from its row: Chilean calendar days to the first access ("el mismo día",
 * "N días después"), and which windows have passed.
 */
export function presentOutcome(r: AttemptOutcomeRow, now = Date.now()): AttemptOutcome {
  const at = new Date(r.at).getTime();
  const first = r.first_access_after ? new Date(r.first_access_after).getTime() : null;
  return {
    attemptId: Number(r.id),
    ticketId: Number(r.ticket_id),
    accessDays: first === null ? null : chileDaysBetween(at, first),
    settled3: now - at >= 3 * DAY_MS,
    settled7: now - at >= 7 * DAY_MS,
    settled14: now - at >= 14 * DAY_MS,
    progressBefore: r.progress_before,
    progress7: r.progress_7,
    progress14: r.progress_14,
  };
}

/** Kept sums of floats differ in their last bits with the order they were added in: 9 decimals are plenty. */
const round9 = (x: number | null) => (x === null ? null : Math.round(x * 1e9) / 1e9);

/** A report row: student-weeks re-engaged (interval widened by the design effect), its standardised baseline and the difference. */
function presentGroup(r: OutcomeGroupRow, deff: number): OutcomeGroup {
  const base = standardised(r.base_expected, r.base_var, r.base_matched);
  const diff = differenceFrom(
    r.base_matched_accessed,
    r.base_matched,
    r.base_expected,
    r.base_var,
    deff,
  );
  return {
    key: r.key,
    label: r.label,
    reengaged: wilsonClustered(r.accessed, r.n, deff),
    gain: r.gain === null ? null : Math.round(r.gain * 10) / 10,
    gainN: r.gain_n,
    baseline: {
      rate: round9(base.rate),
      n: r.base_n,
      low: round9(base.low),
      high: round9(base.high),
    },
    baselineGain: r.base_gain === null ? null : Math.round(r.base_gain * 10) / 10,
    small: r.n < OUTCOME_SMALL_SAMPLE,
    contacts: r.contacts,
    unknown: r.unknown,
    inferred: r.inferred,
    difference: diff && {
      value: round9(diff.value)!,
      low: round9(diff.low)!,
      high: round9(diff.high)!,
    },
  };
}

/** A medium's name (Spanish; the web translates the key). */
const mediumLabel = (key: string) => (ATTEMPT_MEDIUM_LABELS as Record<string, string>)[key] ?? key;

/** What every suggestion's figures are (SuggestionScope). */
const COURSE_WIDE = { scope: 'course', minContacts: OUTCOME_SUGGESTION_MIN } as const;

/** Contact outcomes on tickets, the effectiveness report and Mi agenda's suggestion (docs/usage/efectividad.md). */
export class OutcomeService {
  private readonly repo: OutcomeRepository;

  constructor(
    db: Database,
    private readonly access: TicketAccess,
    /** The demo's data: its responses are simulated, and the report says so. */
    private readonly simulated = false,
  ) {
    this.repo = new OutcomeRepository(db);
  }

  /**
   * The outcome of each attempt of a ticket (the caller must be allowed the ticket), and the
   * student box: of every attempt on the same student in the course that the caller may see (an
   * operator: on tickets assigned to or created by them, whoever logged it; `scope` says which),
   * those whose 7 days have passed and, among them, the re-engaged ones (REENGAGED, as the report).
   */
  async ofTicket(ticketId: number, actor: AuthUser) {
    const [ticket] = await this.access.assert(actor, [ticketId]);
    const enrolmentId = await this.repo.enrolmentOfTicket(ticket!.id);
    const ownerId = ownerScope(actor);
    const rows = await this.repo.ofAttempts({ enrolmentId, ownerId });
    const now = Date.now();
    const settled = rows.filter((r) => presentOutcome(r, now).settled7);
    const mine = await this.repo.ofAttempts({ ticketId });
    return {
      attempts: mine.map((r) => presentOutcome(r, now)),
      student: {
        scope: ownerId === undefined ? ('course' as const) : ('own' as const),
        attempts: rows.length,
        settled7: settled.length,
        accessed7: settled.filter((r) => r.reengaged).length,
        last: rows.length ? presentOutcome(rows.at(-1)!, now) : null,
      },
    };
  }

  /** The period, course and operator a report covers, checked (a Spanish 4xx for anything wrong). */
  private async scope(q: OutcomeReportQuery, actor: AuthUser) {
    if (!isAdminLike(actor.role) && q.user_id !== undefined && q.user_id !== actor.id)
      throw forbidden(OUTCOME_MSG.operatorOnlySelf);
    const userId = isAdminLike(actor.role) ? (q.user_id ?? null) : actor.id;
    if (q.course_id !== undefined) {
      if ((await this.repo.courseName(q.course_id)) === null)
        throw notFound(OUTCOME_MSG.courseNotFound);
    }
    const today = chileParts(new Date()).day;
    const to = q.to ?? today;
    const from = q.from ?? chileParts(new Date(Date.now() - OUTCOME_DEFAULT_DAYS * DAY_MS)).day;
    if (from > to) throw new AppError(422, OUTCOME_MSG.rangeOrder);
    const bounds = dayBounds(from, to);
    if (bounds.to.getTime() - bounds.from.getTime() > (OUTCOME_MAX_DAYS + 1) * DAY_MS)
      throw new AppError(422, OUTCOME_MSG.rangeTooLong);
    return { courseId: q.course_id ?? null, userId, from, to, bounds };
  }

  /** The report as a workbook, named after its course (or the organisation) and the days counted. */
  async workbook(q: OutcomeReportQuery, actor: AuthUser, lang: 'es' | 'en') {
    const report = await this.report(q, actor);
    const course = report.courseId === null ? null : await this.repo.courseName(report.courseId);
    return {
      filename: outcomeFileName(report, course, lang),
      body: await outcomeWorkbook(report, lang),
    };
  }

  /**
   * The effectiveness report: every dimension's groups over the period's settled days (up to
   * OUTCOME_SETTLED_AFTER_DAYS days ago: every window of their contacts and baseline has closed).
   */
  async report(q: OutcomeReportQuery, actor: AuthUser): Promise<OutcomeReport> {
    const s = await this.scope(q, actor);
    const toDay = minDay(s.to, lastSettledDay());
    const { rows, moments } = await this.repo.report(
      OUTCOME_DIMENSIONS,
      {
        courseId: s.courseId ?? undefined,
        operatorId: s.userId ?? undefined,
        fromDay: s.from,
        toDay,
      },
      true,
    );
    const deff = designEffect(moments);
    const dimensions = Object.fromEntries(
      OUTCOME_DIMENSIONS.map((d) => [
        d,
        rows.filter((r) => r.dim === d).map((r) => presentGroup(r, deff)),
      ]),
    ) as OutcomeReport['dimensions'];
    return {
      courseId: s.courseId,
      userId: s.userId,
      from: s.from,
      to: s.to,
      countedTo: toDay,
      simulated: this.simulated,
      dimensions,
      students: moments.g,
      studentWeeks: moments.m,
      designEffect: Math.round(deff * 1e6) / 1e6,
    };
  }

  /**
   * Mi agenda's suggestion for a course: the channel (the attempts' medium) and the hour of day
   * with the best re-engagement over the last OUTCOME_DEFAULT_DAYS days (the settled ones), among
   * groups of at least OUTCOME_SUGGESTION_MIN student-weeks; none when no group has that many.
   */
  async suggestion(courseId: number, actor: AuthUser): Promise<OutcomeSuggestion> {
    await this.assertSuggestionCourse(courseId, actor);
    const fromDay = chileParts(new Date(Date.now() - OUTCOME_DEFAULT_DAYS * DAY_MS)).day;
    const best = (rows: OutcomeGroupRow[]) =>
      rows
        .filter((r) => r.n >= OUTCOME_SUGGESTION_MIN)
        .sort((a, b) => b.accessed / b.n - a.accessed / a.n || b.n - a.n)[0];
    const rows = await this.repo.groups(['medium', 'hour'], {
      courseId,
      fromDay,
      toDay: lastSettledDay(),
    });
    const channel = best(rows.filter((r) => r.dim === 'medium'));
    const hour = best(rows.filter((r) => r.dim === 'hour'));
    return {
      courseId,
      ...COURSE_WIDE,
      channel: channel
        ? {
            key: channel.key,
            label: mediumLabel(channel.key),
            rate: channel.accessed / channel.n,
            n: channel.n,
          }
        : null,
      hour: hour ? { key: hour.key, rate: hour.accessed / hour.n, n: hour.n } : null,
    };
  }

  /**
   * Mi agenda's suggestion for similar students: for each idle group (days without Moodle access),
   * the channel (medium) and the hour with the best re-engagement among the course's contacts to
   * students in that group over the last OUTCOME_DEFAULT_DAYS days (the settled ones), each among
   * groups of at least OUTCOME_SUGGESTION_MIN student-weeks of which some came back; the idle
   * groups with neither are left out. Also the course's own over all its contacts by the same
   * rule, for the students at risk whose group has no suggestion.
   */
  async similar(courseId: number, actor: AuthUser): Promise<OutcomeSimilarSuggestions> {
    await this.assertSuggestionCourse(courseId, actor);
    const fromDay = chileParts(new Date(Date.now() - OUTCOME_DEFAULT_DAYS * DAY_MS)).day;
    const rows = await this.repo.groups([...SIMILAR_DIMENSIONS, 'medium', 'hour'], {
      courseId,
      fromDay,
      toDay: lastSettledDay(),
    });
    // The best group of a dimension (`idle`: of that idle group only, the key's last part).
    const pick = (
      dim: string,
      idle: string | null,
      label: (r: OutcomeGroupRow, key: string) => string,
    ): SuggestedGroup | null => {
      const r = rows
        .filter(
          (x) =>
            x.dim === dim &&
            (idle === null || x.key.endsWith(`|${idle}`)) &&
            x.n >= OUTCOME_SUGGESTION_MIN &&
            x.accessed > 0,
        )
        .sort((a, b) => b.accessed / b.n - a.accessed / a.n || b.n - a.n)[0];
      if (!r) return null;
      const key = idle === null ? r.key : r.key.slice(0, r.key.lastIndexOf('|'));
      return { key, label: label(r, key), n: r.n, accessed: r.accessed, rate: r.accessed / r.n };
    };
    const channelLabel = (_: OutcomeGroupRow, key: string) => mediumLabel(key);
    const hourLabel = (_: OutcomeGroupRow, key: string) => `${key}:00`;
    const groups = IDLE_GROUPS.filter((g) => g !== 'unknown').flatMap((idle) => {
      const channel = pick('medium_idle', idle, channelLabel);
      const hour = pick('hour_idle', idle, hourLabel);
      return channel || hour ? [{ idle, channel, hour }] : [];
    });
    // A small organisation's groups rarely reach the minimum: the course's contacts as a whole then.
    const course = {
      channel: pick('medium', null, channelLabel),
      hour: pick('hour', null, hourLabel),
    };
    return {
      courseId,
      ...COURSE_WIDE,
      groups,
      course: course.channel || course.hour ? course : null,
    };
  }

  /**
   * The suggestions are the whole course's figures (every staff member's contacts, in groups of at
   * least OUTCOME_SUGGESTION_MIN): an administrator reads any course's, an operator only those of the
   * courses in their agenda (a ticket assigned to them there); a 404 for a course that does not exist.
   */
  private async assertSuggestionCourse(courseId: number, actor: AuthUser): Promise<void> {
    if ((await this.repo.courseName(courseId)) === null) throw notFound(OUTCOME_MSG.courseNotFound);
    if (!isAdminLike(actor.role) && !(await this.repo.assignedInCourse(actor.id, courseId)))
      throw forbidden(OUTCOME_MSG.suggestionOwnCourses);
  }
}
