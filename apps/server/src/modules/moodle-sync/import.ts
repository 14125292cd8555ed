import {
  MOODLE_MSG_MORE,
  type MoodleCategoryItem,
  type MoodleCourseItem,
  type MoodleImportResult,
} from '@sigaf/contract';
import type { Database } from '../../db/database.js';
import type { AuthUser } from '../../http/auth.js';
import { AppError } from '../../http/errors.js';
import type { MoodleClient } from '../../moodle/client.js';
import { isMoodleError } from '../../moodle/errors.js';
import type { MoodleCategory } from '../../moodle/schemas.js';
import type { AuditRepository } from '../audit/repository.js';
import { moodleFailure, type MoodleConnectionService } from './connection.js';

/** Local categories and courses by their Moodle ids on one platform. */
export class MoodleImportRepository {
  constructor(private readonly db: Database) {}

  async categoryLinks(platformId: number): Promise<Map<number, number>> {
    const rows = await this.db
      .selectFrom('categories')
      .select(['id', 'id_category_moodle'])
      .where('platform_id', '=', platformId)
      .where('id_category_moodle', 'is not', null)
      .orderBy('id')
      .execute();
    const out = new Map<number, number>();
    for (const r of rows) if (!out.has(r.id_category_moodle!)) out.set(r.id_category_moodle!, r.id);
    return out;
  }

  async courseLinks(platformId: number): Promise<Map<number, number>> {
    const rows = await this.db
      .selectFrom('courses as c')
      .innerJoin('categories as cat', 'cat.id', 'c.category_id')
      .select(['c.id', 'c.id_course_moodle'])
      .where('cat.platform_id', '=', platformId)
      .where('c.id_course_moodle', 'is not', null)
      .orderBy('c.id')
      .execute();
    const out = new Map<number, number>();
    for (const r of rows) if (!out.has(r.id_course_moodle!)) out.set(r.id_course_moodle!, r.id);
    return out;
  }

  /** Finds or creates the local category and course linked to these Moodle ids, in one transaction. */
  link(
    platformId: number,
    category: { moodleId: number; name: string; code: string },
    course: { moodleId: number; name: string },
  ) {
    return this.db.transaction().execute(async (trx) => {
      let cat = await trx
        .selectFrom('categories')
        .select(['id', 'description'])
        .where('platform_id', '=', platformId)
        .where('id_category_moodle', '=', category.moodleId)
        .orderBy('id')
        .executeTakeFirst();
      let categoryCreated = false;
      if (!cat) {
        cat = await trx
          .insertInto('categories')
          .values({
            description: category.name,
            category_code: category.code,
            platform_id: platformId,
            id_category_moodle: category.moodleId,
          })
          .returning(['id', 'description'])
          .executeTakeFirstOrThrow();
        categoryCreated = true;
      }
      let local = await trx
        .selectFrom('courses as c')
        .innerJoin('categories as cat', 'cat.id', 'c.category_id')
        .select(['c.id', 'c.description'])
        .where('cat.platform_id', '=', platformId)
        .where('c.id_course_moodle', '=', course.moodleId)
        .orderBy('c.id')
        .executeTakeFirst();
      let courseCreated = false;
      if (!local) {
        local = await trx
          .insertInto('courses')
          .values({
            description: course.name,
            category_id: cat.id,
            id_course_moodle: course.moodleId,
            status: 1,
          })
          .returning(['id', 'description'])
          .executeTakeFirstOrThrow();
        courseCreated = true;
      }
      return {
        category: { id: cat.id, description: cat.description, created: categoryCreated },
        course: { id: local.id, description: local.description, created: courseCreated },
      } satisfies MoodleImportResult;
    });
  }
}

/** A category code (1–4 upper-case letters or digits) from a Moodle category's idnumber or name. */
export function categoryCodeOf(c: Pick<MoodleCategory, 'name' | 'idnumber'>): string {
  const clean = (s: string) =>
    s
      .normalize('NFD')
      .replace(/[\u0300-\u036f]/g, '')
      .toUpperCase()
      .replace(/[^A-Z0-9 ]/g, ' ')
      .trim();
  const fromId = clean(c.idnumber ?? '').replace(/ /g, '');
  if (fromId) return fromId.slice(0, 4);
  const words = clean(c.name).split(/\s+/).filter(Boolean);
  const initials = words.length > 1 ? words.map((w) => w[0]).join('') : (words[0] ?? '');
  return (initials || 'MDL').slice(0, 4);
}

const fit = (s: string, min: number, max: number, pad: string) => {
  const t = s.replace(/\s+/g, ' ').trim().slice(0, max);
  return t.length >= min ? t : `${t} ${pad}`.trim().slice(0, max);
};

/**
 * Browsing a platform's Moodle (categories, a category's courses) and importing a course: the
 * local category and course are found by their Moodle ids on that platform, or created with
 * Moodle's names, so the course can be synchronised straight away.
 */
export class MoodleImportService {
  constructor(
    private readonly repo: MoodleImportRepository,
    private readonly connection: MoodleConnectionService,
    private readonly audit: AuditRepository,
  ) {}

  private async moodle<T>(fn: () => Promise<T>): Promise<T> {
    try {
      return await fn();
    } catch (e) {
      throw isMoodleError(e) ? moodleFailure(e) : e;
    }
  }

  async categories(platformId: number): Promise<MoodleCategoryItem[]> {
    const client = await this.connection.platformClient(platformId);
    const [categories, links] = await Promise.all([
      this.moodle(() => client.getCategories()),
      this.repo.categoryLinks(platformId),
    ]).finally(() => client.close());
    return categories
      .map((c) => ({
        id: c.id,
        name: c.name,
        parent: c.parent,
        depth: c.depth,
        path: c.path,
        courseCount: c.coursecount,
        localCategoryId: links.get(c.id) ?? null,
      }))
      .sort((a, b) => a.path.localeCompare(b.path, undefined, { numeric: true }));
  }

  async courses(platformId: number, categoryId: number): Promise<MoodleCourseItem[]> {
    const client = await this.connection.platformClient(platformId);
    const [answer, links] = await Promise.all([
      this.moodle(() => client.getCoursesByField('category', categoryId)),
      this.repo.courseLinks(platformId),
    ]).finally(() => client.close());
    return answer.courses
      .filter((c) => c.id !== 1)
      .map((c) => ({
        id: c.id,
        shortname: c.shortname,
        fullname: c.fullname,
        categoryId: c.categoryid ?? categoryId,
        localCourseId: links.get(c.id) ?? null,
      }));
  }

  async importCourse(
    platformId: number,
    moodleCourseId: number,
    actor: AuthUser,
    ip: string,
  ): Promise<MoodleImportResult> {
    const client = await this.connection.platformClient(platformId);
    const { course, categories } = await this.moodleCourse(client, moodleCourseId).finally(() =>
      client.close(),
    );
    const categoryId = course.categoryid!;
    const category = categories[0] ?? {
      id: categoryId,
      name: course.categoryname ?? `Categoría ${categoryId}`,
      idnumber: null,
    };
    const result = await this.repo.link(
      platformId,
      {
        moodleId: category.id,
        name: fit(category.name, 3, 150, 'Moodle'),
        code: categoryCodeOf(category),
      },
      { moodleId: course.id, name: fit(course.fullname, 3, 150, course.shortname) },
    );
    await this.audit.record({
      userId: actor.id,
      action: 'moodle.import',
      entity: 'courses',
      entityId: result.course.id,
      changes: { moodleCourseId, ...result },
      ip,
    });
    return result;
  }

  private async moodleCourse(client: MoodleClient, moodleCourseId: number) {
    const found = await this.moodle(() => client.getCoursesByField('id', moodleCourseId));
    const course = found.courses[0];
    if (!course || course.id === 1 || !course.categoryid)
      throw new AppError(404, MOODLE_MSG_MORE.moodleCourseNotFound);
    const categoryId = course.categoryid;
    return {
      course,
      categories: await this.moodle(() => client.getCategories([{ key: 'id', value: categoryId }])),
    };
  }
}
