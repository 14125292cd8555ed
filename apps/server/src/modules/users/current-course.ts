import type { AuthUser } from '../../http/auth.js';
import type { CourseRow } from '../courses/repository.js';
import type { CourseService } from '../courses/service.js';
import type { FollowUpService } from '../follow-up/service.js';
import type { UserRepository } from './repository.js';

/**
 * Each person's current course (migration 0033): the course every screen with a course selector
 * opens on, so a course chosen on one page is the one of the next, on any device. Only a course
 * the person may follow is kept (a tutor: one with a classroom of theirs), and only an active one
 * is given back.
 */
export class CurrentCourseService {
  constructor(
    private readonly users: UserRepository,
    private readonly courses: CourseService,
    private readonly followUp: FollowUpService,
  ) {}

  async get(actor: AuthUser): Promise<CourseRow | null> {
    const id = await this.users.currentCourse(actor.id);
    if (id === null) return null;
    const allowed = await this.followUp.courseScope(actor, id).then(
      () => true,
      () => false,
    );
    if (!allowed) return null;
    const row = await this.courses.get(id);
    return row.status === 1 ? row : null;
  }

  /** 404 for a missing course, 403 for a tutor's course without a classroom of theirs. */
  async set(actor: AuthUser, courseId: number | null): Promise<CourseRow | null> {
    if (courseId !== null) await this.followUp.courseScope(actor, courseId);
    await this.users.setCurrentCourse(actor.id, courseId);
    return courseId === null ? null : this.courses.get(courseId);
  }
}
