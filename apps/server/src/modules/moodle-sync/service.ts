import {
  MOODLE_MSG,
  MSG,
  normalizeRut,
  type MoodleSyncActivity,
  type MoodleSyncProgress,
  type MoodleSyncResult,
  type MoodleSyncScope,
} from '@sigaf/contract';
import type { Config } from '../../config.js';
import type { Database } from '../../db/database.js';
import type { AuthUser } from '../../http/auth.js';
import { AppError, notFound } from '../../http/errors.js';
import type { JobQueue } from '../../jobs/queue.js';
import { PermanentJobError, type JobHandlers } from '../../jobs/worker.js';
import { mapConcurrent, SYNC_USER_FIELDS } from '../../moodle/client.js';
import { isMoodleError } from '../../moodle/errors.js';
import type { MoodleActivityCompletion } from '../../moodle/schemas.js';
import type { AuditRepository } from '../audit/repository.js';
import { fileNewActivities } from './section-map.service.js';
import {
  activitiesOf,
  gradesByUser,
  isMoodleStudent,
  matchPeople,
  planActivities,
  planPeople,
  type Matching,
  type UserGrades,
} from './plan.js';
import { moodleFailure, type MoodleConnectionService } from './connection.js';
import { storedResults } from './diff.js';
import { seesHiddenActivities } from './hidden.js';
import { suspendedStudents } from './report.js';
import type { MoodleSyncRepository } from './repository.js';

export const MOODLE_SYNC_JOB = 'moodle.sync';
const JOB_TIMEOUT_MS = 60 * 60_000;
const PROGRESS_EVERY_MS = 250;
/** Attempts of a sync: bounded by time for Moodle outages (MOODLE_OUTAGE_WAIT_MS), by OTHER_FAILURE_ATTEMPTS for anything else. */
const SYNC_MAX_ATTEMPTS = 100;
const OTHER_FAILURE_ATTEMPTS = 3;

/** core_user_get_users_by_field not in the service, or not allowed: suspended accounts stay unknown. */
const ACCOUNT_CHECK_UNAVAILABLE = new Set(['accessexception', 'nopermissions', 'invalidparameter']);
/** Errors about one student that do not stop a course's sync (they are reported). */
const PER_USER_CODES = new Set([
  'usernotenroled',
  'notenroled',
  'invalidrecordunknown',
  'invalidrecord',
  'invaliduser',
]);

export interface SyncOptions {
  scope: MoodleSyncScope;
  /** Student scope: the one enrolment to sync. */
  enrolmentId?: number;
  jobId?: number;
  signal?: AbortSignal;
  onProgress?: (p: MoodleSyncProgress) => Promise<void> | void;
}

/**
 * The course sync (the connection and its clients are connection.ts's): few calls (contents once, enrolled users paged, grades of everybody
 * once, completion per matched student with bounded concurrency), all writes of a course in one
 * transaction at the end, changed rows only.
 */
export class MoodleSyncService {
  constructor(
    private readonly db: Database,
    private readonly repo: MoodleSyncRepository,
    private readonly audit: AuditRepository,
    private readonly queue: JobQueue,
    private readonly connection: MoodleConnectionService,
    private readonly config: Config,
  ) {}

  // --- Course sync ---------------------------------------------------------------------------
  registerJobs(handlers: JobHandlers): void {
    handlers.register<{ courseId: number }>(
      MOODLE_SYNC_JOB,
      async (job) => {
        try {
          return await this.syncCourse(job.payload.courseId, {
            scope: 'full',
            jobId: job.id,
            signal: job.signal,
            onProgress: (p) => job.progress(p),
          });
        } catch (e) {
          // Moodle down, restarting or in maintenance: back to the queue (the worker's backoff)
          // for OTHER_FAILURE_ATTEMPTS attempts and then as long as MOODLE_OUTAGE_WAIT_MS have not
          // passed since the sync was queued; anything else will not get better.
          if (isMoodleError(e) && (e.retryable || e.code === 'sitemaintenance')) {
            if (
              job.attempt < OTHER_FAILURE_ATTEMPTS ||
              Date.now() - job.queuedAt.getTime() < this.config.MOODLE_OUTAGE_WAIT_MS
            )
              throw new Error(e.message);
            throw new PermanentJobError(e.message);
          }
          if (isMoodleError(e) || e instanceof AppError) throw new PermanentJobError(e.message);
          if (job.attempt >= OTHER_FAILURE_ATTEMPTS)
            throw new PermanentJobError(e instanceof Error ? e.message : String(e));
          throw e;
        }
      },
      // Waits between attempts at most a tenth of the outage window, so that the last one lands within it.
      {
        timeoutMs: JOB_TIMEOUT_MS,
        retryMaxMs: Math.max(1000, this.config.MOODLE_OUTAGE_WAIT_MS / 10),
      },
    );
  }

  /** Queues a full sync of the course (one queued or running job per course). */
  async enqueue(courseId: number, actor: AuthUser, ip: string) {
    await this.connection.courseContext(courseId);
    const { id, created } = await this.db
      .transaction()
      .execute((trx) => this.queueSync(trx, courseId));
    if (created) {
      this.queue.notify();
      await this.audit.record({
        userId: actor.id,
        action: 'sync',
        entity: 'courses',
        entityId: courseId,
        changes: { jobId: id },
        ip,
      });
    }
    return { jobId: id, created };
  }

  /**
   * Queues a full sync inside the caller's transaction (one queued or running job per course);
   * call queue.notify() after the commit.
   */
  async queueSync(trx: Database, courseId: number) {
    const job = await this.queue.enqueue(
      MOODLE_SYNC_JOB,
      { courseId },
      { uniqueKey: `${MOODLE_SYNC_JOB}:${courseId}`, maxAttempts: SYNC_MAX_ATTEMPTS },
      trx,
    );
    if (job.created)
      await this.repo.saveState(
        courseId,
        { state: 'queued', scope: 'full', job_id: job.id, progress: null, error: null },
        trx,
      );
    return job;
  }

  /** What the course's last (or current) full sync says. */
  async status(courseId: number) {
    const course = await this.repo.lastSyncAt(courseId);
    if (!course) throw notFound();
    const state = await this.repo.syncState(courseId);
    const job = state?.job_id ? await this.queue.get(state.job_id) : undefined;
    const active = job && (job.status === 'queued' || job.status === 'running');
    return {
      courseId,
      state: active ? job.status : (state?.state ?? null),
      jobId: state?.job_id ?? null,
      attempts: job?.attempts ?? null,
      progress: (active ? job.progress : state?.progress) ?? null,
      result: (state?.result as MoodleSyncResult | null) ?? null,
      error: state?.error ?? job?.last_error ?? null,
      startedAt: state?.started_at ? new Date(state.started_at).toISOString() : null,
      finishedAt: state?.finished_at ? new Date(state.finished_at).toISOString() : null,
      lastSyncAt: course.last_sync_at ? new Date(course.last_sync_at).toISOString() : null,
    };
  }

  /** Local courses linked to a Moodle course id (404 when there is none). */
  async coursesOfMoodle(moodleCourseId: number): Promise<number[]> {
    const ids = await this.repo.coursesByMoodleId(moodleCourseId);
    if (!ids.length) throw notFound(MOODLE_MSG.noCourseForMoodleId);
    return ids;
  }

  /** The enrolment of a student in a course, if any. */
  findEnrolment(courseId: number, studentId: number) {
    return this.repo.enrolmentOf(courseId, studentId);
  }

  /** The enrolment of a student in a course (404 when not enrolled). */
  async enrolment(courseId: number, studentId: number) {
    const e = await this.findEnrolment(courseId, studentId);
    if (!e) throw notFound(MOODLE_MSG.notEnrolled);
    return e;
  }

  /**
   * One student's results on chosen activities, read from Moodle now (the original's
   * "Actividades" per student): the student is named by their Moodle user id, in every local
   * course linked to that Moodle course; `found` is false when nobody here has that Moodle id or
   * Moodle does not list them. The sync itself is the one-student sync (all of the student's
   * activities are refreshed; the answer keeps the listed ones).
   */
  async syncStudentActivities(
    moodleCourseId: number,
    moodleUserId: number | null,
    moodleActivityIds: number[],
    actor: AuthUser,
    ip: string,
  ) {
    const courseIds = await this.coursesOfMoodle(moodleCourseId);
    const results: MoodleSyncResult[] = [];
    const rows: Awaited<ReturnType<MoodleSyncRepository['studentResults']>> = [];
    let student: { name: string; last_name: string } | null = null;
    const wanted = new Set(moodleActivityIds);
    for (const courseId of moodleUserId ? courseIds : []) {
      const enrolment = await this.repo.enrolmentOfMoodleUser(courseId, moodleUserId!);
      if (!enrolment) continue;
      student = enrolment;
      results.push(
        await this.syncNow(courseId, { scope: 'student', enrolmentId: enrolment.id }, actor, ip),
      );
      rows.push(
        ...(await this.repo.studentResults(enrolment.id)).filter(
          (r) => r.id_activity_moodle !== null && wanted.has(r.id_activity_moodle),
        ),
      );
    }
    return { found: results.some((r) => r.found > 0), results, rows, student };
  }

  /** A student by RUT in any spelling: 416 "RUT no válido" (as the original), 404 when unknown. */
  async studentByRut(rut: string): Promise<number> {
    const normal = normalizeRut(rut);
    if (!normal) throw new AppError(416, MSG.invalidRut);
    const id = await this.repo.studentIdByRut(normal);
    if (!id) throw notFound();
    return id;
  }

  studentResults(enrolmentId: number) {
    return this.repo.studentResults(enrolmentId);
  }

  /**
   * One sync of a course. Reads Moodle first; then, in one transaction, re-reads the local rows,
   * writes what changed and stamps the course. Any failure before the commit leaves the previous
   * data as it was. Full syncs record their state (moodle_course_syncs) for the status endpoint.
   */
  async syncCourse(courseId: number, o: SyncOptions): Promise<MoodleSyncResult> {
    const course = await this.connection.courseContext(courseId);
    const records = o.scope === 'full';
    const startedAt = new Date();
    let calls = 0;
    const client = this.connection.client(course.url, course.token, () => calls++);
    const moodleId = course.id_course_moodle;
    let lastProgress = 0;
    let lastPhase = '';
    const progress = async (
      phase: MoodleSyncProgress['phase'],
      message: string,
      done = 0,
      total = 0,
    ) => {
      o.signal?.throwIfAborted();
      const now = Date.now();
      if (phase === lastPhase && now - lastProgress < PROGRESS_EVERY_MS && done < total) return;
      lastPhase = phase;
      lastProgress = now;
      await o.onProgress?.({ phase, done, total, message });
    };
    if (records)
      await this.repo.saveState(courseId, {
        state: 'running',
        scope: o.scope,
        job_id: o.jobId ?? null,
        started_at: startedAt,
        finished_at: null,
        error: null,
      });
    try {
      const wantsActivities = o.scope !== 'users';
      const wantsPeople = o.scope !== 'activities';
      const wantsProgress = o.scope === 'full' || o.scope === 'student';

      await progress('contents', 'Leyendo actividades del curso en Moodle');
      const contents = wantsActivities
        ? await client.getCourseContents(moodleId, [{ name: 'excludecontents', value: true }])
        : [];
      await progress('users', 'Leyendo participantes del curso en Moodle');
      const users = wantsPeople
        ? await client.getAllEnrolledUsers(moodleId, {
            userfields: SYNC_USER_FIELDS,
            pageSize: this.config.MOODLE_PAGE_SIZE,
          })
        : [];
      // A token whose user may not see usernames nor ID numbers: nobody can be matched. Refuse to
      // apply (nothing is marked unsynchronised) and say which capability is missing.
      // (The token's own user, a teacher in the course, always sees their own: only students count.)
      const learners = users.filter(isMoodleStudent);
      if (learners.length && !learners.some((u) => u.username || u.idnumber))
        throw new AppError(422, MOODLE_MSG.identityFieldsMissing);
      const before = wantsPeople
        ? matchPeople(await this.repo.enrolments(this.db, courseId, o.enrolmentId), users)
        : null;

      const gradeErrors: string[] = [];
      const completionErrors: string[] = [];
      let grades = new Map<number, UserGrades>();
      const suspended = new Set<number>();
      const completion = new Map<number, MoodleActivityCompletion[]>();
      const students = before?.matches.filter((m) => isMoodleStudent(m.user)) ?? [];
      // A suspended account (the Moodle user, not the enrolment) is not in the participants'
      // answer: core_user_get_users_by_field says it (optional function; without it, unknown).
      const suspendedAccounts = new Set<number>();
      if (wantsProgress && students.length) {
        try {
          for (const u of await client.getUsersByField(
            'id',
            students.map((m) => m.user.id),
          ))
            if (u.suspended) suspendedAccounts.add(u.id);
        } catch (e) {
          if (!isMoodleError(e) || !ACCOUNT_CHECK_UNAVAILABLE.has(e.code)) throw e;
        }
        for (const id of suspendedAccounts) suspended.add(id);
      }
      if (wantsProgress && students.length) {
        await progress('grades', 'Leyendo calificaciones');
        // The grade report (one long call for the whole course) is read while the students'
        // completion is: the first failure of either is the sync's error, and no further call is made.
        let failed = false;
        const stopOthersOnFailure = (read: () => Promise<void>) =>
          read().catch((error: unknown) => {
            failed = true;
            throw error;
          });
        const readGrades = async () => {
          const single = o.scope === 'student' && students.length === 1 ? students[0]!.user.id : 0;
          grades = gradesByUser((await client.getGradeItems(moodleId, single)).usergrades);
          // Moodle's report for everybody leaves out suspended enrolments: their grades are unknown
          // there, not empty. Each one's own report still has them.
          if (!single) {
            for (const m of students.filter((x) => !grades.has(x.user.id))) {
              if (failed) return;
              suspended.add(m.user.id);
              try {
                for (const [id, g] of gradesByUser(
                  (await client.getGradeItems(moodleId, m.user.id)).usergrades,
                ))
                  grades.set(id, g);
              } catch (e) {
                if (!isMoodleError(e) || !PER_USER_CODES.has(e.code)) throw e;
                gradeErrors.push(
                  `No se pudieron leer las calificaciones de ${m.user.fullname} (usuario ${m.user.id} de Moodle): ${e.message}`,
                );
              }
            }
          }
        };
        let done = 0;
        const readCompletion = () =>
          mapConcurrent(students, this.config.MOODLE_CONCURRENCY, async (m) => {
            if (failed) return;
            o.signal?.throwIfAborted();
            try {
              completion.set(
                m.user.id,
                (await client.getActivitiesCompletionStatus(moodleId, m.user.id)).statuses,
              );
            } catch (e) {
              if (!isMoodleError(e) || !PER_USER_CODES.has(e.code)) throw e;
              completionErrors.push(
                `No se pudo leer el avance de ${m.user.fullname} (usuario ${m.user.id} de Moodle): ${e.message}`,
              );
            }
            done++;
            await progress(
              'completion',
              `Leyendo avance de actividades (${done} de ${students.length})`,
              done,
              students.length,
            );
          }).then(() => undefined);
        await Promise.all([stopOthersOnFailure(readGrades), stopOthersOnFailure(readCompletion)]);
      }
      const errors = [...gradeErrors, ...completionErrors];
      const seesHidden =
        wantsActivities &&
        (await seesHiddenActivities(
          client,
          contents,
          await this.repo.activities(this.db, courseId),
        ));

      await progress('writing', 'Guardando');
      return await this.db.transaction().execute(async (trx) => {
        await this.repo.lockCourse(trx, courseId);
        let activitiesAdded = 0;
        let activitiesUpdated = 0;
        let activitiesRemoved = 0;
        let removedActivities: MoodleSyncActivity[] = [];
        let hiddenActivities: MoodleSyncActivity[] = [];
        let unseenActivities: MoodleSyncActivity[] = [];
        const activityWarnings: string[] = [];
        const refused: NonNullable<MoodleSyncResult['refused']> = []; // values out of range (ranges.ts): not stored, listed in the report
        if (wantsActivities) {
          // Course modules Moodle's grade report or completion still has (evidence that an
          // activity missing from the contents is hidden from the token, not deleted).
          const stillInMoodle = new Set<number>();
          for (const g of grades.values())
            for (const cmid of g.byCmid.keys()) stillInMoodle.add(cmid);
          for (const statuses of completion.values())
            for (const c of statuses) stillInMoodle.add(c.cmid);
          const inContents = activitiesOf(contents);
          const plan = planActivities(
            await this.repo.activities(trx, courseId),
            inContents,
            new Date(),
            stillInMoodle,
            seesHidden,
          );
          // New activities go where the course maps their Moodle section, else to Formativa with a proposed section.
          activitiesAdded = await fileNewActivities(trx, courseId, contents, plan.inserts);
          activitiesRemoved = plan.removed;
          activitiesUpdated = (await this.repo.updateActivities(trx, plan.updates)) - plan.removed;
          removedActivities = plan.removedList;
          refused.push(...plan.refused);
          hiddenActivities = [
            ...inContents
              .filter((a) => a.hidden)
              .map((a) => ({ cmid: a.cmid, name: a.name, detail: MOODLE_MSG.hiddenDetail })),
            ...plan.hiddenFromToken.map((a) => ({
              ...a,
              detail: MOODLE_MSG.hiddenFromTokenDetail,
            })),
          ];
          if (plan.hiddenFromToken.length)
            activityWarnings.push(
              MOODLE_MSG.hiddenActivitiesNotVisible(plan.hiddenFromToken.length),
            );
          unseenActivities = plan.unseen.map((a) => ({ ...a, detail: MOODLE_MSG.unseenDetail }));
          if (plan.unseen.length)
            activityWarnings.push(MOODLE_MSG.activitiesUnseen(plan.unseen.length));
        }
        let matching: Matching = {
          matches: [],
          invalidRuts: [],
          missingInMoodle: [],
          missingLocally: [],
          errors: [],
        };
        let rowsWritten = 0;
        if (wantsPeople) {
          const enrolments = await this.repo.enrolments(trx, courseId, o.enrolmentId);
          matching = matchPeople(enrolments, users);
          const activities = await this.repo.activities(trx, courseId);
          // Only the students whose stored results differ from Moodle's are read row by row.
          const stored = wantsProgress
            ? storedResults(
                { matching, activities, grades, completion },
                await this.repo.resultFingerprints(trx, courseId, o.enrolmentId),
              )
            : null;
          const plan = planPeople({
            withProgress: wantsProgress,
            matching,
            enrolments,
            activities,
            results: stored ? await this.repo.results(trx, courseId, stored.load) : [],
            unchanged: stored?.unchanged,
            grades,
            completion,
            suspended: wantsProgress && !o.enrolmentId ? suspended : undefined,
          });
          refused.push(...(matching.refused ?? []), ...plan.refused);
          rowsWritten += await this.repo.updateEnrolments(trx, plan.enrolments);
          rowsWritten += await this.repo.updateStudents(trx, plan.students);
          rowsWritten += await this.repo.insertResults(trx, plan.resultInserts);
          rowsWritten += await this.repo.updateResults(trx, plan.resultUpdates);
          if (wantsProgress)
            await this.repo.appendHistory(
              trx,
              courseId,
              plan,
              activitiesAdded + activitiesUpdated + activitiesRemoved > 0,
              o.enrolmentId,
            );
        }
        if (!o.enrolmentId) await this.repo.stampCourse(trx, courseId);
        const result: MoodleSyncResult = {
          courseId,
          courseMoodleId: moodleId,
          scope: o.scope,
          invalidRuts: matching.invalidRuts,
          found: matching.matches.length,
          missingInMoodle: matching.missingInMoodle,
          identityHidden: matching.identityHidden ?? [],
          // A one-student sync reports on that student only.
          missingLocally: o.enrolmentId ? [] : matching.missingLocally,
          activitiesAdded,
          activitiesUpdated,
          activitiesRemoved,
          removedActivities,
          hiddenActivities,
          unseenActivities,
          suspended: suspended.size,
          suspendedStudents: suspendedStudents(matching, suspended, suspendedAccounts),
          rowsWritten: rowsWritten + activitiesAdded + activitiesUpdated + activitiesRemoved,
          refused,
          errors: [
            ...(refused.length ? [MOODLE_MSG.refusedValues(refused.length)] : []),
            ...activityWarnings,
            ...(matching.identityHidden?.length
              ? [
                  MOODLE_MSG.identityPartial(
                    matching.identityHidden.length,
                    matching.unverified?.size ?? 0,
                  ),
                ]
              : []),
            ...matching.errors,
            ...errors,
          ],
          moodleCalls: calls,
          startedAt: startedAt.toISOString(),
          finishedAt: new Date().toISOString(),
        };
        const done: MoodleSyncProgress = {
          phase: 'done',
          done: 1,
          total: 1,
          message: MOODLE_MSG.syncOk,
        };
        if (records)
          await this.repo.saveState(
            courseId,
            {
              state: 'done',
              scope: o.scope,
              result,
              progress: done,
              error: null,
              finished_at: new Date(),
            },
            trx,
          );
        return result;
      });
    } catch (e) {
      if (records) {
        const message = e instanceof Error ? e.message : String(e);
        await this.repo.saveState(courseId, {
          state: 'failed',
          scope: o.scope,
          error: message.slice(0, 4000),
          finished_at: new Date(),
        });
      }
      throw e;
    } finally {
      client.close();
    }
  }

  /** A synchronous sync (original endpoints): Moodle errors become clear API errors. */
  async syncNow(
    courseId: number,
    o: SyncOptions,
    actor: AuthUser,
    ip: string,
  ): Promise<MoodleSyncResult> {
    try {
      const result = await this.syncCourse(courseId, o);
      await this.audit.record({
        userId: actor.id,
        action: 'sync',
        entity: 'courses',
        entityId: courseId,
        changes: { scope: o.scope, found: result.found, rowsWritten: result.rowsWritten },
        ip,
      });
      return result;
    } catch (e) {
      throw isMoodleError(e) ? moodleFailure(e) : e;
    }
  }
}
