import type { Database } from '../../db/database.js';
import type { WeightCandidate } from './sections.js';

/** SQL of the sections of synchronised activities: proposals, and each course's Moodle section → SIGAF section mapping. */

export interface NewActivityRow {
  id_activity_moodle: number;
  description: string;
  type: string;
  hidden: boolean;
  section_id: number | null;
  moodle_section: string | null;
  proposed_section_id: number | null;
}

export class SectionMapRepository {
  constructor(private readonly db: Database) {}

  sections(db: Database = this.db) {
    return db.selectFrom('sections').select(['id', 'key', 'description']).orderBy('id').execute();
  }

  async courseExists(courseId: number) {
    return Boolean(
      await this.db
        .selectFrom('courses')
        .select('id')
        .where('id', '=', courseId)
        .executeTakeFirst(),
    );
  }

  maps(courseId: number, db: Database = this.db) {
    return db
      .selectFrom('moodle_section_maps as m')
      .innerJoin('sections as s', 's.id', 'm.section_id')
      .select([
        'm.id',
        'm.moodle_section',
        'm.section_id',
        's.key as section_key',
        's.description as section_description',
      ])
      .where('m.course_id', '=', courseId)
      .orderBy('m.moodle_section')
      .execute();
  }

  /** The Moodle section of each of the course's activities still in Moodle. */
  moodleSectionsOfActivities(courseId: number) {
    return this.db
      .selectFrom('activities')
      .select(['moodle_section'])
      .where('course_id', '=', courseId)
      .where('removed_at', 'is', null)
      .where('moodle_section', 'is not', null)
      .execute();
  }

  async insertMap(
    courseId: number,
    moodleSection: string,
    sectionId: number,
    userId: number | null,
    db: Database = this.db,
  ) {
    return (
      await db
        .insertInto('moodle_section_maps')
        .values({
          course_id: courseId,
          moodle_section: moodleSection,
          section_id: sectionId,
          created_by: userId,
        })
        .onConflict((oc) =>
          oc
            .columns(['course_id', 'moodle_section'])
            .doUpdateSet({ section_id: sectionId, updated_at: new Date() }),
        )
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
  }

  async updateMap(id: number, sectionId: number, db: Database = this.db) {
    await db
      .updateTable('moodle_section_maps')
      .set({ section_id: sectionId, updated_at: new Date() })
      .where('id', '=', id)
      .execute();
  }

  async deleteMap(courseId: number, id: number) {
    const r = await this.db
      .deleteFrom('moodle_section_maps')
      .where('course_id', '=', courseId)
      .where('id', '=', id)
      .executeTakeFirst();
    return Number(r.numDeletedRows) > 0;
  }

  /** Pending proposals: activities still in Moodle and in Formativa (or no section) with a proposed section. */
  proposals(courseId: number) {
    return (
      this.db
        .selectFrom('activities as a')
        .innerJoin('sections as p', 'p.id', 'a.proposed_section_id')
        .leftJoin('sections as c', 'c.id', 'a.section_id')
        .select([
          'a.id',
          'a.description',
          'a.moodle_section',
          'a.section_id',
          'c.key as current_key',
          'c.description as current_description',
          'p.id as proposed_id',
          'p.key as proposed_key',
          'p.description as proposed_description',
        ])
        .where('a.course_id', '=', courseId)
        .where('a.removed_at', 'is', null)
        // Still unfiled: an activity staff already moved out of Formativa has nothing pending.
        .where((eb) => eb.or([eb('a.section_id', 'is', null), eb('c.key', '=', 'formative')]))
        .orderBy('a.id')
        .execute()
    );
  }

  /** Files the proposals (all, or these activities'): each activity goes to its proposed section. */
  applyProposals(courseId: number, activityIds: number[] | undefined, db: Database = this.db) {
    let q = db
      .updateTable('activities')
      .set((eb) => ({
        section_id: eb.ref('proposed_section_id'),
        proposed_section_id: null,
        updated_at: new Date(),
      }))
      .where('course_id', '=', courseId)
      .where('proposed_section_id', 'is not', null)
      .where((eb) =>
        eb.or([
          eb('section_id', 'is', null),
          eb(
            'section_id',
            'in',
            eb.selectFrom('sections').select('id').where('key', '=', 'formative'),
          ),
        ]),
      );
    if (activityIds) q = q.where('id', 'in', activityIds.length ? activityIds : [0]);
    return q.returning(['id', 'moodle_section', 'section_id', 'description']).execute();
  }

  /** Activities of the course staff have not filed yet: still in `defaultSectionId` (or none), or with a proposal pending. */
  unfiled(courseId: number, defaultSectionId: number | null, db: Database = this.db) {
    return db
      .selectFrom('activities')
      .select(['id', 'moodle_section'])
      .where('course_id', '=', courseId)
      .where('moodle_section', 'is not', null)
      .where((eb) =>
        eb.or([
          eb('proposed_section_id', 'is not', null),
          eb('section_id', 'is', null),
          ...(defaultSectionId ? [eb('section_id', '=', defaultSectionId)] : []),
        ]),
      )
      .execute();
  }

  async fileActivities(ids: number[], sectionId: number, db: Database = this.db) {
    if (!ids.length) return 0;
    const r = await db
      .updateTable('activities')
      .set({ section_id: sectionId, proposed_section_id: null, updated_at: new Date() })
      .where('id', 'in', ids)
      .executeTakeFirst();
    return Number(r.numUpdatedRows);
  }

  async insertActivities(db: Database, courseId: number, rows: readonly NewActivityRow[]) {
    for (let i = 0; i < rows.length; i += 500) {
      await db
        .insertInto('activities')
        .values(rows.slice(i, i + 500).map((r) => ({ ...r, course_id: courseId, weighing: 0 })))
        .execute();
    }
    return rows.length;
  }

  /** The course's activities as proposeWeights reads them (section: the proposed one when pending). */
  async weightCandidates(
    courseId: number,
    db: Database = this.db,
  ): Promise<Array<WeightCandidate & { description: string }>> {
    const rows = await db
      .selectFrom('activities as a')
      .leftJoin('sections as c', 'c.id', 'a.section_id')
      .leftJoin('sections as p', 'p.id', 'a.proposed_section_id')
      .select([
        'a.id',
        'a.description',
        'a.type',
        'a.moodle_section',
        'a.weighing',
        'a.removed_at',
        'a.excluded_from_progress',
        'c.key as current_key',
        'p.key as proposed_key',
      ])
      .where('a.course_id', '=', courseId)
      .orderBy('a.id')
      .execute();
    return rows.map((r) => ({
      id: r.id,
      description: r.description,
      type: r.type,
      moodleSection: r.moodle_section,
      sectionKey: r.proposed_key ?? r.current_key,
      weighing: Number(r.weighing),
      removed: r.removed_at !== null,
      excluded: r.excluded_from_progress,
    }));
  }

  /** Sets proposed weights on activities still weighing 0; returns how many changed. */
  async setWeights(weights: ReadonlyMap<number, number>, db: Database = this.db) {
    let n = 0;
    for (const [id, weighing] of weights) {
      const r = await db
        .updateTable('activities')
        .set({ weighing, updated_at: new Date() })
        .where('id', '=', id)
        .where('weighing', '=', 0)
        .executeTakeFirst();
      n += Number(r.numUpdatedRows);
    }
    return n;
  }

  /** Activities synchronised before their Moodle section was recorded. */
  withoutMoodleSection(db: Database, courseId: number) {
    return db
      .selectFrom('activities')
      .select(['id', 'id_activity_moodle', 'description', 'section_id', 'weighing'])
      .where('course_id', '=', courseId)
      .where('moodle_section', 'is', null)
      .where('id_activity_moodle', 'is not', null)
      .execute();
  }

  async recordMoodleSection(
    db: Database,
    id: number,
    values: {
      moodle_section: string;
      section_id?: number | null;
      proposed_section_id?: number | null;
    },
  ) {
    await db.updateTable('activities').set(values).where('id', '=', id).execute();
  }
}
