import { MOODLE_MSG, type ListQuery } from '@sigaf/contract';
import type { Updateable } from 'kysely';
import type { CourseTable } from '../../db/schema.js';
import type { AuthUser } from '../../http/auth.js';
import { conflict, notFound } from '../../http/errors.js';
import { encryptSecret } from '../../lib/crypto.js';
import type { AuditRepository } from '../audit/repository.js';
import { requireOption, withoutUndefined } from '../shared/rules.js';
import type { ActivityRepository, CourseRepository } from './repository.js';

export interface CourseInput {
  description?: string;
  email?: string;
  password?: string;
  id_course_moodle?: number;
  category_id?: number;
  status?: number;
}

export interface ActivityInput {
  description?: string;
  course_id?: number;
  section_id?: number;
  weighing?: number;
  id_activity_moodle?: number;
  type?: string;
}

/**
 * What a course's mailbox password reads as when one is set: the original client shows it and sends
 * it back on every edit (docs/development/original-api.md#courses); received again, it leaves the password unchanged.
 */
export const COURSE_PASSWORD_MASK = '********';

/** Courses; the mailbox password is encrypted with APP_SECRET and never returned. */
export class CourseService {
  constructor(
    private readonly repo: CourseRepository,
    private readonly audit: AuditRepository,
    private readonly secret: string,
  ) {}

  list(q: ListQuery & { categoryId?: number; includeInactive?: boolean }) {
    return this.repo.list(q);
  }

  async get(id: number) {
    const row = await this.repo.findById(id);
    if (!row) throw notFound();
    return row;
  }

  private values(input: CourseInput): Updateable<CourseTable> {
    const { password: given, ...rest } = input;
    const password = given === COURSE_PASSWORD_MASK ? undefined : given;
    return {
      ...withoutUndefined(rest),
      ...(password ? { password_encrypted: encryptSecret(password, this.secret) } : {}),
    };
  }

  async create(
    input: CourseInput & { description: string; category_id: number },
    actor: AuthUser,
    ip: string,
  ) {
    await requireOption('category_id', input.category_id, (id) => this.repo.categoryExists(id));
    const v = this.values(input);
    const id = await this.repo.insert({
      ...v,
      description: input.description,
      category_id: input.category_id,
    });
    await this.audit.record({
      userId: actor.id,
      action: 'create',
      entity: 'courses',
      entityId: id,
      changes: { ...input, password: input.password ? '***' : undefined },
      ip,
    });
    return this.get(id);
  }

  async update(id: number, input: CourseInput, actor: AuthUser, ip: string) {
    await this.get(id);
    await requireOption('category_id', input.category_id, (cid) => this.repo.categoryExists(cid));
    const v = this.values(input);
    if (Object.keys(v).length) await this.repo.update(id, v);
    await this.audit.record({
      userId: actor.id,
      action: 'update',
      entity: 'courses',
      entityId: id,
      changes: { ...input, password: input.password ? '***' : undefined },
      ip,
    });
    return this.get(id);
  }

  async remove(id: number, actor: AuthUser, ip: string) {
    const row = await this.get(id);
    const usage = await this.repo.usage(id);
    if (usage.enrolments || usage.tickets) {
      throw conflict(
        `No se puede eliminar porque tiene ${usage.enrolments} matrícula(s) y ${usage.tickets} ticket(s). Puede desactivarlo cambiando su estado.`,
      );
    }
    await this.repo.delete(id);
    await this.audit.record({
      userId: actor.id,
      action: 'delete',
      entity: 'courses',
      entityId: id,
      changes: { description: row.description },
      ip,
    });
  }

  async activities(id: number) {
    await this.get(id);
    return this.repo.activitiesOf(id);
  }
}

export class ActivityService {
  constructor(
    private readonly repo: ActivityRepository,
    private readonly audit: AuditRepository,
  ) {}

  list(q: ListQuery & { courseId?: number; sectionId?: number }) {
    return this.repo.list(q);
  }

  async get(id: number) {
    const row = await this.repo.findById(id);
    if (!row) throw notFound();
    return row;
  }

  private async check(input: ActivityInput) {
    await requireOption('course_id', input.course_id, (id) => this.repo.exists('courses', id));
    await requireOption('section_id', input.section_id, (id) => this.repo.exists('sections', id));
  }

  async create(
    input: ActivityInput & { description: string; course_id: number },
    actor: AuthUser,
    ip: string,
  ) {
    await this.check(input);
    const id = await this.repo.insert({
      ...withoutUndefined(input),
      description: input.description,
      course_id: input.course_id,
    });
    await this.audit.record({
      userId: actor.id,
      action: 'create',
      entity: 'activities',
      entityId: id,
      changes: input,
      ip,
    });
    return this.get(id);
  }

  /** Leaves an activity out of progress and pending counts, or brings it back. */
  async setExcluded(id: number, excluded: boolean, actor: AuthUser, ip: string) {
    await this.get(id);
    await this.repo.update(id, { excluded_from_progress: excluded });
    await this.audit.record({
      userId: actor.id,
      action: 'update',
      entity: 'activities',
      entityId: id,
      changes: { excluded_from_progress: excluded },
      ip,
    });
    return this.get(id);
  }

  /**
   * Staff confirm that an activity marked "no visible para el token" is deleted in Moodle (the
   * sync could not tell it from a hidden one): removed now, out of progress, its results kept.
   */
  async confirmRemoval(id: number, actor: AuthUser, ip: string) {
    await this.get(id);
    if (!(await this.repo.confirmRemoval(id))) throw conflict(MOODLE_MSG.removalNotUnseen);
    await this.audit.record({
      userId: actor.id,
      action: 'update',
      entity: 'activities',
      entityId: id,
      changes: { removed_at: 'confirmed' },
      ip,
    });
    return this.get(id);
  }

  async update(id: number, input: ActivityInput, actor: AuthUser, ip: string) {
    await this.get(id);
    await this.check(input);
    const changes = withoutUndefined(input);
    if (Object.keys(changes).length) await this.repo.update(id, changes);
    await this.audit.record({
      userId: actor.id,
      action: 'update',
      entity: 'activities',
      entityId: id,
      changes,
      ip,
    });
    return this.get(id);
  }

  async remove(id: number, actor: AuthUser, ip: string) {
    const row = await this.get(id);
    await this.repo.delete(id);
    await this.audit.record({
      userId: actor.id,
      action: 'delete',
      entity: 'activities',
      entityId: id,
      changes: { description: row.description },
      ip,
    });
  }
}
