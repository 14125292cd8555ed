import {
  MOODLE_MSG_MORE,
  moodleUsernameOf,
  normalizeRut,
  type MoodlePushProgress,
  type MoodlePushRequest,
  type MoodlePushResult,
  type MoodleSyncIssue,
} from '@sigaf/contract';
import type { Config } from '../../config.js';
import type { Database } from '../../db/database.js';
import type { AuthUser } from '../../http/auth.js';
import { AppError, notFound } from '../../http/errors.js';
import type { JobQueue } from '../../jobs/queue.js';
import { PermanentJobError, type JobHandlers } from '../../jobs/worker.js';
import { SYNC_USER_FIELDS, type MoodleClient } from '../../moodle/client.js';
import { isMoodleError } from '../../moodle/errors.js';
import type { MoodleEnrolledUser, MoodleUser } from '../../moodle/schemas.js';
import type { AuditRepository } from '../audit/repository.js';
import { moodleRutOf } from './plan.js';
import type { MoodleConnectionService } from './connection.js';

export const MOODLE_PUSH_JOB = 'moodle.push';
const JOB_TIMEOUT_MS = 60 * 60_000;
/** Users per core_user_create_users call: a failure (all or nothing) costs only this many. */
const CREATE_BATCH = 50;
/** enrol_manual_enrol_users' errorcode when it enrolled and then could not send the welcome message. */
const WELCOME_NOT_SENT = 'Message was not sent.';
/** Moodle's standard role ids that must never be given through SIGAF (manager, course creator, teachers). */
const PRIVILEGED_ROLE_IDS = new Set([1, 2, 3, 4]);
const PRIVILEGED_SHORTNAMES = new Set([
  'manager',
  'coursecreator',
  'editingteacher',
  'teacher',
  'admin',
]);
const EMAIL = /^[^@\s]+@[^@\s]+\.[^@\s]+$/;

interface LocalRow {
  enrolment_id: number;
  student_id: number;
  rut: string;
  name: string;
  last_name: string;
  mother_last_name: string | null;
  email: string | null;
  classroom: string | null;
  /** Matched in the Moodle course before (a sync saw it there). */
  moodle_seen: boolean;
}

/** The local side of a push: a course's students with their classroom. */
export class MoodlePushRepository {
  constructor(private readonly db: Database) {}

  students(courseId: number): Promise<LocalRow[]> {
    return this.db
      .selectFrom('course_registered_users as e')
      .innerJoin('registered_users as r', 'r.id', 'e.registered_user_id')
      .leftJoin('classrooms as c', 'c.id', 'e.classroom_id')
      .select([
        'e.id as enrolment_id',
        'r.id as student_id',
        'r.rut',
        'r.name',
        'r.last_name',
        'r.mother_last_name',
        'r.email',
        'c.description as classroom',
        'e.moodle_seen',
      ])
      .where('e.course_id', '=', courseId)
      .orderBy('e.id')
      .execute();
  }

  /** Remembers the Moodle id of students SIGAF created or found in Moodle. */
  async linkStudents(links: ReadonlyArray<{ studentId: number; moodleId: number }>) {
    for (const l of links) {
      await this.db
        .updateTable('registered_users')
        .set({ id_registered_moodle: l.moodleId })
        .where('id', '=', l.studentId)
        .where('id_registered_moodle', 'is', null)
        .execute();
    }
  }

  lastJob(courseId: number) {
    return this.db
      .selectFrom('jobs')
      .selectAll()
      .where('type', '=', MOODLE_PUSH_JOB)
      .where('unique_key', '=', `${MOODLE_PUSH_JOB}:${courseId}`)
      .orderBy('id', 'desc')
      .limit(1)
      .executeTakeFirst();
  }
}

/**
 * Moodle's student role id, as the course's enrolled users show it (role shortname "student");
 * Moodle's default 5 when nobody in the course has a role yet. Never a privileged role.
 */
export function studentRoleOf(users: readonly MoodleEnrolledUser[]): number | null {
  const roles = users.flatMap((u) => u.roles ?? []);
  const student = roles.find((r) => r.shortname === 'student');
  const id =
    student?.roleid ?? (roles.some((r) => r.roleid === 5 && r.shortname !== 'student') ? null : 5);
  if (id === null || PRIVILEGED_ROLE_IDS.has(id)) return null;
  if (roles.some((r) => r.roleid === id && PRIVILEGED_SHORTNAMES.has(r.shortname))) return null;
  return id;
}

/**
 * The push direction, an administrator's choice per course: students SIGAF has and Moodle lacks
 * are created in Moodle (username = RUT without dots, lower case; idnumber = RUT), enrolled in
 * the course with Moodle's student role, and the course's classrooms mirrored as Moodle groups
 * with their members. Runs as a `moodle.push` job with progress and a report; it reads Moodle's
 * state first, so running it again only sends what is still missing.
 */
export class MoodlePushService {
  constructor(
    private readonly db: Database,
    private readonly repo: MoodlePushRepository,
    private readonly connection: MoodleConnectionService,
    private readonly audit: AuditRepository,
    private readonly queue: JobQueue,
    private readonly config: Config,
  ) {}

  registerJobs(handlers: JobHandlers): void {
    handlers.register<{ courseId: number; options: MoodlePushRequest }>(
      MOODLE_PUSH_JOB,
      async (job) => {
        try {
          return await this.push(
            job.payload.courseId,
            job.payload.options,
            (p) => job.progress(p),
            job.signal,
          );
        } catch (e) {
          // Writes are not repeated blindly: any failure ends the job with its message.
          if (isMoodleError(e) || e instanceof AppError) throw new PermanentJobError(e.message);
          throw e;
        }
      },
      { timeoutMs: JOB_TIMEOUT_MS },
    );
  }

  async enqueue(courseId: number, options: MoodlePushRequest, actor: AuthUser, ip: string) {
    await this.connection.courseClient(courseId);
    const job = await this.queue.enqueue(
      MOODLE_PUSH_JOB,
      { courseId, options },
      { uniqueKey: `${MOODLE_PUSH_JOB}:${courseId}`, maxAttempts: 1 },
    );
    if (job.created)
      await this.audit.record({
        userId: actor.id,
        action: 'moodle.push',
        entity: 'courses',
        entityId: courseId,
        changes: { jobId: job.id, ...options },
        ip,
      });
    return { jobId: job.id, created: job.created };
  }

  async status(courseId: number) {
    const exists = await this.db
      .selectFrom('courses')
      .select('id')
      .where('id', '=', courseId)
      .executeTakeFirst();
    if (!exists) throw notFound();
    const job = await this.repo.lastJob(courseId);
    return {
      courseId,
      state: job?.status ?? null,
      jobId: job?.id ?? null,
      progress: (job?.progress as MoodlePushProgress | null) ?? null,
      result: (job?.result as MoodlePushResult | null) ?? null,
      error: job?.status === 'failed' ? job.last_error : null,
      updatedAt: job ? new Date(job.updated_at).toISOString() : null,
    };
  }

  /** One push of a course to Moodle; its clients' answers are let go when it ends. */
  async push(
    courseId: number,
    options: MoodlePushRequest,
    onProgress?: (p: MoodlePushProgress) => Promise<void> | void,
    signal?: AbortSignal,
  ): Promise<MoodlePushResult> {
    const clients: MoodleClient[] = [];
    try {
      return await this.pushWith(clients, courseId, options, onProgress, signal);
    } finally {
      for (const c of clients) c.close();
    }
  }

  private async pushWith(
    clients: MoodleClient[],
    courseId: number,
    options: MoodlePushRequest,
    onProgress?: (p: MoodlePushProgress) => Promise<void> | void,
    signal?: AbortSignal,
  ): Promise<MoodlePushResult> {
    let calls = 0;
    const { course, client: reader } = await this.connection.courseClient(courseId, () => calls++);
    clients.push(reader);
    const moodleId = course.id_course_moodle;
    const startedAt = new Date();
    const progress = async (
      phase: MoodlePushProgress['phase'],
      message: string,
      done = 0,
      total = 0,
    ) => {
      signal?.throwIfAborted();
      await onProgress?.({ phase, done, total, message });
    };
    const skipped: MoodleSyncIssue[] = [];
    const notReenrolled: MoodleSyncIssue[] = [];
    const errors: string[] = [];
    const skip = (row: LocalRow, detail: string) =>
      skipped.push({
        source: 'local',
        id: row.enrolment_id,
        rut: row.rut,
        name: `${row.name} ${row.last_name}`.trim(),
        detail,
      });

    await progress('reading', 'Leyendo participantes del curso en Moodle');
    const enrolled = await reader.getAllEnrolledUsers(moodleId, {
      userfields: SYNC_USER_FIELDS,
      pageSize: this.config.MOODLE_PAGE_SIZE,
    });
    const studentRoleId = studentRoleOf(enrolled);
    // The client refuses any role but this one before calling Moodle.
    const client = this.connection.client(
      course.url,
      course.token,
      () => calls++,
      studentRoleId ? [studentRoleId] : [],
    );
    clients.push(client);
    const inCourse = new Map<string, MoodleEnrolledUser>();
    for (const u of enrolled) {
      const found = moodleRutOf(u);
      if (found && !inCourse.has(found.rut)) inCourse.set(found.rut, u);
    }

    // Who is who: in the course, elsewhere in Moodle, or nowhere.
    const local = await this.repo.students(courseId);
    const moodleIdOf = new Map<number, number>(); // enrolment id -> Moodle user id
    const enrolledAlready = new Set<number>();
    const outside: Array<LocalRow & { normal: string }> = [];
    for (const row of local) {
      const normal = normalizeRut(row.rut);
      if (!normal) {
        skip(row, 'RUT local no válido');
        continue;
      }
      const user = inCourse.get(normal);
      if (user) {
        moodleIdOf.set(row.enrolment_id, user.id);
        enrolledAlready.add(row.enrolment_id);
      } else outside.push({ ...row, normal });
    }

    let usersLinked = 0;
    let usersCreated = 0;
    const links: Array<{ studentId: number; moodleId: number }> = [];
    if (outside.length && (options.createUsers || options.enrol || options.groups)) {
      await progress('users', 'Buscando alumnos en Moodle', 0, outside.length);
      const known = new Map<string, MoodleUser>();
      const remember = (users: MoodleUser[]) => {
        for (const u of users) {
          const found = moodleRutOf({ idnumber: u.idnumber ?? '', username: u.username ?? '' });
          if (found && !known.has(found.rut)) known.set(found.rut, u);
        }
      };
      remember(
        await reader.getUsersByField(
          'username',
          outside.map((r) => moodleUsernameOf(r.normal)),
        ),
      );
      const spellings = outside.flatMap((r) => [
        r.normal,
        r.normal.replace(/\./g, ''),
        r.normal.replace(/[.-]/g, ''),
      ]);
      remember(await reader.getUsersByField('idnumber', spellings));
      const toCreate: Array<LocalRow & { normal: string }> = [];
      for (const row of outside) {
        const user = known.get(row.normal);
        if (user) {
          moodleIdOf.set(row.enrolment_id, user.id);
          links.push({ studentId: row.student_id, moodleId: user.id });
          usersLinked++;
        } else if (options.createUsers) toCreate.push(row);
        else skip(row, 'No existe en Moodle');
      }

      if (toCreate.length) {
        const withEmail = toCreate.filter((r) => {
          if (r.email && EMAIL.test(r.email)) return true;
          skip(r, 'Sin correo electrónico válido: Moodle lo exige');
          return false;
        });
        const taken = new Set(
          (
            await reader.getUsersByField('email', [
              ...new Set(withEmail.map((r) => r.email!.toLowerCase())),
            ])
          ).map((u) => (u.email ?? '').toLowerCase()),
        );
        const seen = new Set<string>();
        const creatable = withEmail.filter((r) => {
          const email = r.email!.toLowerCase();
          if (taken.has(email) || seen.has(email)) {
            skip(r, `El correo ${r.email} ya lo usa otro usuario de Moodle`);
            return false;
          }
          seen.add(email);
          return true;
        });
        for (let i = 0; i < creatable.length; i += CREATE_BATCH) {
          const batch = creatable.slice(i, i + CREATE_BATCH);
          try {
            const created = await client.createUsers(
              batch.map((r) => ({
                username: moodleUsernameOf(r.normal),
                firstname: r.name,
                lastname: [r.last_name, r.mother_last_name].filter(Boolean).join(' '),
                email: r.email!,
                idnumber: r.normal,
                auth: 'manual',
                createpassword: true,
              })),
            );
            const byUsername = new Map(created.map((c) => [c.username, c.id]));
            for (const r of batch) {
              const id = byUsername.get(moodleUsernameOf(r.normal));
              if (!id) continue;
              moodleIdOf.set(r.enrolment_id, id);
              links.push({ studentId: r.student_id, moodleId: id });
              usersCreated++;
            }
          } catch (e) {
            if (!isMoodleError(e)) throw e;
            errors.push(
              `No se pudieron crear ${batch.length} usuario(s) en Moodle (${batch.map((r) => r.normal).join(', ')}): ${e.message}`,
            );
          }
          await progress(
            'users',
            `Creando usuarios en Moodle (${Math.min(i + CREATE_BATCH, creatable.length)} de ${creatable.length})`,
            Math.min(i + CREATE_BATCH, creatable.length),
            creatable.length,
          );
        }
      }
      await this.repo.linkStudents(links);
    }

    // Enrolment with the student role.
    let enrolled_ = 0;
    if (options.enrol) {
      // Someone Moodle's course had and no longer has was unenrolled there, perhaps on purpose:
      // enrolled again only when the push asks to; otherwise listed.
      const gone = local.filter((r) => r.moodle_seen && !enrolledAlready.has(r.enrolment_id));
      if (!options.reenrol)
        for (const r of gone)
          notReenrolled.push({
            source: 'local',
            id: r.enrolment_id,
            rut: r.rut,
            name: `${r.name} ${r.last_name}`.trim(),
            detail: 'Ya no está en el curso de Moodle: no se matricula de nuevo',
          });
      const held = new Set(options.reenrol ? [] : gone.map((r) => r.enrolment_id));
      const pending = local.filter(
        (r) =>
          moodleIdOf.has(r.enrolment_id) &&
          !enrolledAlready.has(r.enrolment_id) &&
          !held.has(r.enrolment_id),
      );
      if (pending.length && !studentRoleId) errors.push(MOODLE_MSG_MORE.noStudentRole);
      else if (pending.length) {
        await progress(
          'enrol',
          `Matriculando ${pending.length} alumno(s) en Moodle`,
          0,
          pending.length,
        );
        try {
          await client.enrolUsers(
            pending.map((r) => ({
              roleid: studentRoleId!,
              userid: moodleIdOf.get(r.enrolment_id)!,
              courseid: moodleId,
            })),
          );
          for (const r of pending) enrolledAlready.add(r.enrolment_id);
          enrolled_ = pending.length;
        } catch (e) {
          if (!isMoodleError(e)) throw e;
          // Moodle may have committed the enrolments before failing (a welcome message that
          // could not be sent): what it really has is read again before reporting or grouping.
          const now = new Set(
            (
              await reader.getAllEnrolledUsers(moodleId, {
                userfields: 'id',
                pageSize: this.config.MOODLE_PAGE_SIZE,
              })
            ).map((u) => u.id),
          );
          const notEnrolled: string[] = [];
          for (const r of pending) {
            if (!now.has(moodleIdOf.get(r.enrolment_id)!)) {
              notEnrolled.push(r.rut);
              continue;
            }
            enrolledAlready.add(r.enrolment_id);
            enrolled_++;
          }
          // Said as it is: those enrolled are enrolled (only the message failed); the others are named.
          if (enrolled_ && e.code === WELCOME_NOT_SENT)
            errors.push(MOODLE_MSG_MORE.enrolledWelcomeNotSent(enrolled_));
          if (notEnrolled.length) errors.push(MOODLE_MSG_MORE.enrolFailed(notEnrolled, e.message));
        }
        await progress('enrol', 'Matrícula en Moodle terminada', pending.length, pending.length);
      }
    }

    // Classrooms as groups, with the members enrolled in the Moodle course.
    let groupsCreated = 0;
    let membersAdded = 0;
    if (options.groups) {
      const byClassroom = new Map<string, number[]>();
      for (const r of local) {
        const userId = moodleIdOf.get(r.enrolment_id);
        if (!r.classroom || !userId) continue;
        if (!enrolledAlready.has(r.enrolment_id)) {
          skip(r, 'No está matriculado en el curso de Moodle: no se agrega al grupo');
          continue;
        }
        byClassroom.set(r.classroom, [...(byClassroom.get(r.classroom) ?? []), userId]);
      }
      if (byClassroom.size) {
        await progress('groups', 'Reflejando aulas como grupos de Moodle', 0, byClassroom.size);
        const existing = await client.getCourseGroups(moodleId);
        const groupId = new Map(existing.map((g) => [g.name.trim().toLowerCase(), g.id]));
        const missing = [...byClassroom.keys()].filter(
          (name) => !groupId.has(name.trim().toLowerCase()),
        );
        if (missing.length) {
          const created = await client.createGroups(
            missing.map((name) => ({ courseid: moodleId, name, description: 'Aula de SIGAF' })),
          );
          for (const g of created) groupId.set(g.name.trim().toLowerCase(), g.id);
          groupsCreated = created.length;
        }
        const ids = [...byClassroom.keys()]
          .map((name) => groupId.get(name.trim().toLowerCase())!)
          .filter(Boolean);
        const current = new Map(
          (await client.getGroupMembers(ids)).map((g) => [g.groupid, new Set(g.userids)]),
        );
        const add: Array<{ groupid: number; userid: number }> = [];
        for (const [name, users] of byClassroom) {
          const gid = groupId.get(name.trim().toLowerCase());
          if (!gid) continue;
          for (const userid of users)
            if (!current.get(gid)?.has(userid)) add.push({ groupid: gid, userid });
        }
        if (add.length) {
          try {
            await client.addGroupMembers(add);
            membersAdded = add.length;
          } catch (e) {
            if (!isMoodleError(e)) throw e;
            errors.push(`No se pudieron agregar miembros a los grupos: ${e.message}`);
          }
        }
        await progress('groups', 'Grupos listos', byClassroom.size, byClassroom.size);
      }
    }

    const result: MoodlePushResult = {
      courseId,
      courseMoodleId: moodleId,
      options,
      studentRoleId,
      usersCreated,
      usersLinked,
      enrolled: enrolled_,
      alreadyEnrolled: local.filter((r) => enrolledAlready.has(r.enrolment_id)).length - enrolled_,
      groupsCreated,
      membersAdded,
      skipped,
      notReenrolled,
      errors,
      moodleCalls: calls,
      startedAt: startedAt.toISOString(),
      finishedAt: new Date().toISOString(),
    };
    await progress('done', 'Envío a Moodle terminado', 1, 1);
    return result;
  }
}
