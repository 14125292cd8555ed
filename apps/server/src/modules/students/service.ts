import {
  isAdminLike,
  MSG,
  normalizeRut,
  STUDENT_IDENTITY_FIELDS,
  STUDENT_MSG,
  type ListQuery,
  type StudentMatch,
} from '@sigaf/contract';
import type { AuthUser } from '../../http/auth.js';
import { AppError, conflict, forbidden, notFound } from '../../http/errors.js';
import type { AuditRepository } from '../audit/repository.js';
import { requireOption, withoutUndefined } from '../shared/rules.js';
import type {
  ActivityResultRow,
  EnrolmentRepository,
  StudentRepository,
  StudentRow,
  StudentValues,
} from './repository.js';

export class StudentService {
  constructor(
    private readonly repo: StudentRepository,
    private readonly audit: AuditRepository,
  ) {}

  list(q: ListQuery & { courseId?: number }) {
    return this.repo.list(q);
  }

  async get(id: number) {
    const row = await this.repo.findById(id);
    if (!row) throw notFound();
    return row;
  }

  /** GET /registered-user/{rut}: any spelling of a valid RUT finds the student; an invalid one is a 406. */
  async getByRut(rut: string) {
    const found = await this.lookupRut(rut);
    if (found.invalid) throw new AppError(406, MSG.invalidRut);
    if (!found.row) throw notFound();
    return found.row;
  }

  /** The RUT lookup without errors: invalid, unknown (no row) or the student. */
  async lookupRut(rut: string): Promise<{ invalid: boolean; row?: StudentRow }> {
    const normal = normalizeRut(rut);
    if (!normal) return { invalid: true };
    return { invalid: false, row: await this.repo.findByRut(normal) };
  }

  async create(
    input: StudentValues & { rut: string; name: string; last_name: string },
    actor: AuthUser,
    ip: string,
  ) {
    if (await this.repo.findByRut(input.rut))
      throw conflict(`Ya existe un alumno con el RUT ${input.rut}.`);
    const id = await this.repo.insert(input);
    await this.audit.record({
      userId: actor.id,
      action: 'create',
      entity: 'registered_users',
      entityId: id,
      changes: input,
      ip,
    });
    return this.get(id);
  }

  /**
   * Updates a student, whichever route asks (the maintenance resource, view-store, the quick edit
   * of the ticket screen). One rule: operators correct contact data only; the RUT and the names
   * stay with administrators and developers.
   */
  async update(id: number, input: StudentValues, actor: AuthUser, ip: string) {
    const current = await this.get(id);
    const identityChanged = STUDENT_IDENTITY_FIELDS.some(
      (f) => input[f] !== undefined && (input[f] ?? null) !== (current[f] ?? null),
    );
    if (identityChanged && !isAdminLike(actor.role)) throw forbidden(STUDENT_MSG.identityAdminOnly);
    if (input.rut && input.rut !== current.rut && (await this.repo.findByRut(input.rut))) {
      throw conflict(`Ya existe un alumno con el RUT ${input.rut}.`);
    }
    const changes = withoutUndefined(input);
    if (Object.keys(changes).length) await this.repo.update(id, changes as never);
    await this.audit.record({
      userId: actor.id,
      action: 'update',
      entity: 'registered_users',
      entityId: id,
      changes,
      ip,
    });
    return this.get(id);
  }

  /** view-store: update the student with that id (or RUT), or create it. */
  async upsert(
    input: StudentValues & { id?: number; rut: string; name: string; last_name: string },
    actor: AuthUser,
    ip: string,
  ) {
    const { id, ...values } = input;
    const existing = id ? await this.repo.findById(id) : await this.repo.findByRut(values.rut);
    if (existing) return { row: await this.update(existing.id, values, actor, ip), created: false };
    return { row: await this.create(values, actor, ip), created: true };
  }

  async remove(id: number, actor: AuthUser, ip: string) {
    const row = await this.get(id);
    if (Number(row.enrolments_count) > 0)
      throw conflict(STUDENT_MSG.studentHasEnrolments(Number(row.enrolments_count)));
    await this.repo.delete(id);
    await this.audit.record({
      userId: actor.id,
      action: 'delete',
      entity: 'registered_users',
      entityId: id,
      changes: { rut: row.rut },
      ip,
    });
  }
}

export interface SplitPlan {
  classroomId: number;
  classroom: string;
  ids: number[];
}

export class EnrolmentService {
  constructor(
    private readonly repo: EnrolmentRepository,
    private readonly audit: AuditRepository,
  ) {}

  list(
    q: ListQuery & {
      courseId?: number;
      studentId?: number;
      classroomId?: number;
      classroomIds?: number[];
      unassigned?: boolean;
      profileKey?: string;
    },
  ) {
    return this.repo.list(q);
  }

  async get(id: number) {
    const row = await this.repo.findById(id);
    if (!row) throw notFound();
    return row;
  }

  private async checkRefs(input: {
    course_id?: number;
    registered_user_id?: number;
    profile_id?: number | null;
    classroom_id?: number | null;
    final_status_id?: number | null;
  }) {
    await requireOption('course_id', input.course_id, (id) => this.repo.lookupId('courses', id));
    await requireOption('registered_user_id', input.registered_user_id, (id) =>
      this.repo.lookupId('registered_users', id),
    );
    await requireOption('profile_id', input.profile_id, (id) => this.repo.lookupId('profiles', id));
    await requireOption('classroom_id', input.classroom_id, (id) =>
      this.repo.lookupId('classrooms', id),
    );
    await requireOption('final_status_id', input.final_status_id, (id) =>
      this.repo.lookupId('final_statuses', id),
    );
  }

  /** Enrols a student in a course (as Estudiante unless a profile is given). */
  async enrol(
    input: {
      course_id: number;
      registered_user_id: number;
      profile_id?: number | null;
      classroom_id?: number | null;
    },
    actor: AuthUser,
    ip: string,
  ) {
    await this.checkRefs(input);
    if (await this.repo.findByStudentAndCourse(input.registered_user_id, input.course_id))
      throw conflict(STUDENT_MSG.alreadyEnrolled);
    const id = await this.repo.insert({
      course_id: input.course_id,
      registered_user_id: input.registered_user_id,
      profile_id: input.profile_id ?? (await this.repo.profileIdByKey('student')),
      classroom_id: input.classroom_id ?? null,
    });
    await this.audit.record({
      userId: actor.id,
      action: 'create',
      entity: 'course_registered_users',
      entityId: id,
      changes: input,
      ip,
    });
    return this.get(id);
  }

  async update(
    id: number,
    input: {
      classroom_id?: number | null;
      profile_id?: number | null;
      final_status_id?: number | null;
    },
    actor: AuthUser,
    ip: string,
  ) {
    await this.get(id);
    await this.checkRefs(input);
    const changes = withoutUndefined({ ...input, profile_id: input.profile_id ?? undefined });
    if (Object.keys(changes).length) await this.repo.update(id, changes);
    await this.audit.record({
      userId: actor.id,
      action: 'update',
      entity: 'course_registered_users',
      entityId: id,
      changes,
      ip,
    });
    return this.get(id);
  }

  /** Build classrooms: put many enrolments (of one course) in a classroom. */
  async assign(
    classroomId: number,
    ids: number[],
    profileId: number | null | undefined,
    actor: AuthUser,
    ip: string,
  ) {
    const name = await this.repo.classroomName(classroomId);
    if (!name) throw notFound('El aula no existe.');
    await this.checkRefs({ profile_id: profileId });
    const courses = await this.repo.courseOf(ids);
    if (courses.length > 1)
      throw new AppError(422, 'Los alumnos seleccionados deben pertenecer a un mismo curso.');
    const n = await this.repo.assignClassroom(null, ids, classroomId, profileId);
    await this.audit.record({
      userId: actor.id,
      action: 'assign_classroom',
      entity: 'course_registered_users',
      entityId: classroomId,
      changes: { ids, profileId },
      ip,
    });
    return { count: n, classroom: name, message: STUDENT_MSG.classroomBuilt(name, n) };
  }

  /** Splits the unassigned students of a course evenly over the chosen classrooms (preview unless confirmed). */
  async autoSplit(
    courseId: number,
    classroomIds: number[],
    confirm: boolean,
    actor: AuthUser,
    ip: string,
  ) {
    await this.checkRefs({ course_id: courseId });
    const names: string[] = [];
    for (const id of classroomIds) {
      const n = await this.repo.classroomName(id);
      if (!n) throw new AppError(422, 'Una de las aulas seleccionadas no existe.');
      names.push(n);
    }
    const ids = await this.repo.unassignedIds(courseId);
    const plan: SplitPlan[] = classroomIds.map((classroomId, i) => ({
      classroomId,
      classroom: names[i]!,
      ids: [],
    }));
    ids.forEach((id, i) => plan[i % plan.length]!.ids.push(id));
    if (confirm && ids.length) {
      await this.repo.applySplit(courseId, plan);
      await this.audit.record({
        userId: actor.id,
        action: 'auto_split',
        entity: 'courses',
        entityId: courseId,
        changes: plan.map((p) => ({ classroomId: p.classroomId, count: p.ids.length })),
        ip,
      });
    }
    return {
      applied: confirm && ids.length > 0,
      total: ids.length,
      plan: plan.map((p) => ({
        classroomId: p.classroomId,
        classroom: p.classroom,
        count: p.ids.length,
      })),
    };
  }

  async remove(id: number, actor: AuthUser, ip: string) {
    const row = await this.get(id);
    if (Number(row.tickets_count) > 0)
      throw conflict(STUDENT_MSG.enrolmentHasTickets(Number(row.tickets_count)));
    await this.repo.delete(id);
    await this.audit.record({
      userId: actor.id,
      action: 'delete',
      entity: 'course_registered_users',
      entityId: id,
      changes: { rut: row.rut, course: row.course_id },
      ip,
    });
  }

  async ofStudentInCourse(studentId: number, courseId: number) {
    const row = await this.findOfStudentInCourse(studentId, courseId);
    if (!row) throw notFound(STUDENT_MSG.notEnrolled);
    return row;
  }

  /** Students found by name or RUT in the active courses (the given course's first), to open a ticket. */
  async find(search: string, firstCourseId?: number): Promise<StudentMatch[]> {
    const rows = await this.repo.find(search, firstCourseId, 20);
    return rows.map((r) => ({
      enrolmentId: r.enrolment_id,
      studentId: r.student_id,
      rut: r.rut,
      fullName: [r.name, r.last_name, r.mother_last_name].filter(Boolean).join(' '),
      courseId: r.course_id,
      course: r.course,
      category: r.category,
    }));
  }

  /** The enrolment of a student in a course, or undefined when not enrolled. */
  findOfStudentInCourse(studentId: number, courseId: number) {
    return this.repo.findByStudentAndCourse(studentId, courseId);
  }

  /** Enrolments by id, in the order given. */
  findMany(ids: number[]) {
    return this.repo.findMany(ids);
  }

  /**
   * The enrolments, among these students' results on chosen activities, with at least one of them
   * still pending: neither completed in Moodle (any completion state but none) nor graded.
   */
  pendingOn(
    students: ReadonlyArray<{
      id: number;
      activities: ReadonlyArray<{ completionState: number | null; grade: number | null }>;
    }>,
  ) {
    const pending = students.filter((s) =>
      s.activities.some(
        (a) => !(a.completionState !== null && a.completionState > 0) && a.grade === null,
      ),
    );
    return this.repo.findMany(pending.map((s) => s.id));
  }

  /** The Moodle results of these enrolments (activity and section included), per enrolment id. */
  async activityResults(enrolmentIds: number[]): Promise<Map<number, ActivityResultRow[]>> {
    const out = new Map<number, ActivityResultRow[]>(enrolmentIds.map((id) => [id, []]));
    for (const r of await this.repo.activityResults(enrolmentIds))
      out.get(r.course_registered_user_id)?.push(r);
    return out;
  }

  count(courseId: number) {
    return this.repo.count(courseId);
  }

  lastSync(courseId: number) {
    return this.repo.lastSync(courseId);
  }

  perClassroom(courseId: number) {
    return this.repo.perClassroom(courseId);
  }

  roster(courseId: number) {
    return this.repo.roster(courseId);
  }
}
