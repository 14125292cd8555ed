import {
  DASHBOARD_MSG,
  fileDay,
  fileSlug,
  FOLLOW_UP_EXPORT_LIMIT,
  FOLLOW_UP_MSG,
  STUDENT_STATES,
  type ClassroomTutors,
  type FollowUpClassroom,
  type FollowUpCourse,
  type FollowUpFilters,
  type FollowUpStudent,
  type FollowUpStudentsQuery,
} from '@sigaf/contract';
import type { AuthUser } from '../../http/auth.js';
import { forbidden, invalid, notFound } from '../../http/errors.js';
import type { AuditRepository } from '../audit/repository.js';
import type { FollowUpRepository, StudentTableRow } from './repository.js';

/** The classrooms a user may follow: every one (undefined), or a tutor's own. */
export type ClassroomAccess = number[] | undefined;

export function presentStudent(r: StudentTableRow): FollowUpStudent {
  return {
    id: r.id,
    registeredUserId: r.registeredUserId,
    rut: r.rut,
    name: r.name,
    lastName: r.lastName,
    motherLastName: r.motherLastName,
    email: r.email,
    phone: r.phone,
    classroomId: r.classroomId,
    classroom: r.classroom,
    status: STUDENT_STATES[r.stage] ?? STUDENT_STATES[0],
    stage: r.stage,
    form: r.form,
    lastAccess: r.lastAccess ? new Date(r.lastAccess).toISOString() : null,
    lastAccessText: r.lastAccessText,
    daysWithoutAccess: r.daysWithoutAccess,
    progress: r.progress,
    graded: r.graded,
    expected: r.expected,
    openTickets: r.openTickets,
    tickets: r.tickets,
    synced: r.synced,
    suspended: Boolean(r.suspended),
  };
}

/**
 * Student follow-up: who follows which classroom, and what a user may see. A user with role
 * tutor sees only the classrooms assigned to them; asking for another one is a 403.
 */
export class FollowUpService {
  constructor(
    private readonly repo: FollowUpRepository,
    private readonly audit: AuditRepository,
  ) {}

  /** The classrooms of a course this user may follow: all for staff, those assigned to them in that course for a tutor. */
  async access(actor: AuthUser, courseId: number): Promise<ClassroomAccess> {
    return actor.role === 'tutor' ? this.repo.classroomsOfTutor(actor.id, courseId) : undefined;
  }

  /**
   * The course (must exist) and the classrooms of it this user may follow. A tutor with no
   * assigned classroom holding students of the course gets a 403.
   */
  async courseScope(
    actor: AuthUser,
    courseId: number,
    classroomId?: number,
  ): Promise<{ courseId: number; classroomIds?: number[] }> {
    if (!(await this.repo.courseExists(courseId))) throw notFound(DASHBOARD_MSG.courseNotFound);
    const allowed = await this.access(actor, courseId);
    if (!allowed) return { courseId };
    if (classroomId !== undefined) {
      if (!allowed.includes(classroomId)) throw forbidden(FOLLOW_UP_MSG.classroomForbidden);
      return { courseId, classroomIds: allowed };
    }
    const rooms = await this.repo.classrooms(courseId, allowed);
    if (!rooms.length) throw forbidden(FOLLOW_UP_MSG.courseForbidden);
    return { courseId, classroomIds: allowed };
  }

  // -- tutors of a classroom -------------------------------------------------------------------

  private async classroom(id: number) {
    const row = await this.repo.classroom(id);
    if (!row) throw notFound(FOLLOW_UP_MSG.classroomNotFound);
    return row;
  }

  private async course(id: number) {
    const row = await this.repo.course(id);
    if (!row) throw notFound(DASHBOARD_MSG.courseNotFound);
    return row;
  }

  async tutors(courseId: number, classroomId: number): Promise<ClassroomTutors> {
    const [course, classroom] = await Promise.all([
      this.course(courseId),
      this.classroom(classroomId),
    ]);
    const [tutors, candidates] = await Promise.all([
      this.repo.tutorsOf(courseId, classroomId),
      this.repo.tutorCandidates(),
    ]);
    return { course, classroom, tutors, candidates };
  }

  /** Replaces the tutors of a classroom in a course; every id must be an active user with role tutor (422 otherwise). */
  async setTutors(
    courseId: number,
    classroomId: number,
    userIds: number[],
    actor: AuthUser,
    ip: string,
  ) {
    const [, classroom] = await Promise.all([this.course(courseId), this.classroom(classroomId)]);
    const tutors = new Set(await this.repo.tutorIds(userIds));
    const refused = userIds.filter((id) => !tutors.has(id));
    if (refused.length) throw invalid({ user_ids: [FOLLOW_UP_MSG.notTutor(refused)] });
    const before = (await this.repo.tutorsOf(courseId, classroomId)).map((t) => t.id);
    await this.repo.replaceTutors(courseId, classroomId, userIds);
    await this.audit.record({
      userId: actor.id,
      action: 'update',
      entity: 'classroom_tutors',
      entityId: `${courseId}/${classroomId}`,
      changes: { course: courseId, tutors: [before, userIds] },
      ip,
    });
    return {
      message: FOLLOW_UP_MSG.tutorsSaved(classroom.description, userIds.length),
      data: await this.tutors(courseId, classroomId),
    };
  }

  // -- selectors -------------------------------------------------------------------------------

  async courses(actor: AuthUser): Promise<FollowUpCourse[]> {
    const rows = await this.repo.courses(actor.role === 'tutor' ? actor.id : undefined);
    return rows.map((c) => ({
      id: c.id,
      description: c.description,
      lastSyncAt: c.last_sync_at ? new Date(c.last_sync_at).toISOString() : null,
      category: { id: c.category_id, description: c.category_description },
    }));
  }

  async classrooms(actor: AuthUser, courseId: number): Promise<FollowUpClassroom[]> {
    const scope = await this.courseScope(actor, courseId);
    return this.repo.classrooms(courseId, scope.classroomIds);
  }

  // -- the student table -----------------------------------------------------------------------

  async students(actor: AuthUser, courseId: number, q: FollowUpStudentsQuery) {
    const scope = await this.courseScope(actor, courseId, q.classroom_id);
    const { rows, meta } = await this.repo.students({ ...q, ...scope });
    return { rows: rows.map(presentStudent), meta };
  }

  /** Every row the filters select (the export), bounded. */
  async exportRows(actor: AuthUser, courseId: number, q: FollowUpFilters) {
    const scope = await this.courseScope(actor, courseId, q.classroom_id);
    const { rows } = await this.repo.students({ ...q, ...scope }, FOLLOW_UP_EXPORT_LIMIT);
    const [course, room] = await Promise.all([
      this.repo.course(courseId),
      q.classroom_id === undefined ? undefined : this.repo.classroom(q.classroom_id),
    ]);
    // Named as every export: the course, the classroom when one was chosen, the day.
    const filename = `seguimiento-${fileSlug(course?.description ?? '')}${room ? `-${fileSlug(room.description)}` : ''}-${fileDay()}.xlsx`;
    return { filename, rows: rows.map(presentStudent) };
  }

  /** One student of the table with their activities in the course. */
  async detail(actor: AuthUser, enrolmentId: number) {
    const enrolment = await this.repo.enrolment(enrolmentId);
    if (!enrolment) throw notFound(FOLLOW_UP_MSG.enrolmentNotFound);
    const allowed = await this.access(actor, enrolment.course_id);
    if (allowed && (enrolment.classroom_id === null || !allowed.includes(enrolment.classroom_id)))
      throw forbidden(FOLLOW_UP_MSG.enrolmentForbidden);
    const { rows } = await this.repo.students({
      courseId: enrolment.course_id,
      enrolmentIds: [enrolmentId],
    });
    const row = rows[0];
    // Not a student enrolment (a tutor's or a teacher's): not part of the follow-up.
    if (!row) throw notFound(FOLLOW_UP_MSG.enrolmentNotFound);
    const student = presentStudent(row);
    const activities = await this.repo.activitiesOf(enrolmentId, enrolment.course_id, student.form);
    const mails = (await this.repo.mailsOf(enrolmentId)).map((m) => ({
      id: m.id,
      subject: m.subject,
      status: m.status,
      createdAt: new Date(m.created_at).toISOString(),
      ticketId: m.ticket_id,
    }));
    return {
      student,
      course: { id: enrolment.course_id, description: enrolment.course_description },
      activities,
      mails,
    };
  }

  /** Enrolment ids of a mail or ticket action: all must exist (422 naming the missing ones). */
  async requireEnrolments(ids: number[]) {
    const found = new Set((await this.repo.enrolments(ids)).map((e) => e.id));
    const missing = ids.filter((id) => !found.has(id));
    if (missing.length)
      throw invalid({ enrolmentIds: [FOLLOW_UP_MSG.enrolmentsNotFound(missing)] });
  }
}
