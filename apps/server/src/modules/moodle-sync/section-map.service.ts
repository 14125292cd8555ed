import {
  MOODLE_SECTION_MSG,
  type ApplySectionProposalsInput,
  type MoodleSectionMap,
  type MoodleSectionMapInput,
  type SectionProposals,
  type SectionProposalsApplied,
  type SectionRef,
} from '@sigaf/contract';
import type { Database } from '../../db/database.js';
import type { AuthUser } from '../../http/auth.js';
import { conflict, invalid, notFound } from '../../http/errors.js';
import type { MoodleSection } from '../../moodle/schemas.js';
import type { AuditRepository } from '../audit/repository.js';
import { SectionMapRepository, type NewActivityRow } from './section-map.repository.js';
import {
  foldName,
  mappingLookup,
  moodleSectionsOf,
  proposeSection,
  proposeWeights,
  type SigafSection,
} from './sections.js';

type NewActivity = Omit<NewActivityRow, 'section_id' | 'moodle_section' | 'proposed_section_id'>;

/** The proposal came from the Moodle section's own name: accepting it maps that Moodle section too. */
const proposedBySectionName = (
  moodleSection: string | null,
  sectionId: number,
  sections: readonly SigafSection[],
) => Boolean(moodleSection) && proposeSection(moodleSection, '', sections)?.id === sectionId;

/**
 * Inside the sync's transaction: inserts Moodle's new activities, each in the SIGAF section the
 * course maps its Moodle section to, else in Formativa with a proposed section when Moodle's names
 * point to one. Activities synchronised before their Moodle section was recorded get it once, and
 * those still unfiled (Formativa, weight 0) get the mapping or a proposal the same way.
 */
export async function fileNewActivities(
  trx: Database,
  courseId: number,
  contents: readonly MoodleSection[],
  inserts: readonly NewActivity[],
): Promise<number> {
  const repo = new SectionMapRepository(trx);
  const [sections, maps] = await Promise.all([repo.sections(trx), repo.maps(courseId, trx)]);
  const formative = sections.find((s) => s.key === 'formative')?.id ?? null;
  const mapped = mappingLookup(maps);
  const sectionOf = moodleSectionsOf(contents);
  for (const a of await repo.withoutMoodleSection(trx, courseId)) {
    const moodleSection = sectionOf.get(a.id_activity_moodle!);
    if (!moodleSection) continue;
    const unfiled =
      (a.section_id === null || a.section_id === formative) && Number(a.weighing) === 0;
    const target = unfiled ? mapped(moodleSection) : null;
    const proposal =
      unfiled && !target
        ? (proposeSection(moodleSection, a.description, sections)?.id ?? null)
        : null;
    await repo.recordMoodleSection(trx, a.id, {
      moodle_section: moodleSection,
      ...(target ? { section_id: target } : {}),
      ...(proposal ? { proposed_section_id: proposal } : {}),
    });
  }
  const rows = inserts.map((r): NewActivityRow => {
    const moodleSection = sectionOf.get(r.id_activity_moodle) ?? null;
    const target = mapped(moodleSection);
    return {
      ...r,
      moodle_section: moodleSection,
      section_id: target ?? formative,
      proposed_section_id: target
        ? null
        : (proposeSection(moodleSection, r.description, sections)?.id ?? null),
    };
  });
  return repo.insertActivities(trx, courseId, rows);
}

/** Proposals of sections for synchronised activities, their one-click acceptance, and each course's Moodle section → SIGAF section mapping. */
export class SectionMapService {
  constructor(
    private readonly db: Database,
    private readonly repo: SectionMapRepository,
    private readonly audit: AuditRepository,
  ) {}

  private async requireCourse(courseId: number) {
    if (!(await this.repo.courseExists(courseId)))
      throw notFound(MOODLE_SECTION_MSG.courseNotFound);
  }

  private async mapList(courseId: number, only?: ReadonlySet<number>): Promise<MoodleSectionMap[]> {
    const [maps, activities] = await Promise.all([
      this.repo.maps(courseId),
      this.repo.moodleSectionsOfActivities(courseId),
    ]);
    const count = new Map<string, number>();
    for (const a of activities)
      count.set(foldName(a.moodle_section!), (count.get(foldName(a.moodle_section!)) ?? 0) + 1);
    return maps
      .filter((m) => !only || only.has(m.id))
      .map((m) => ({
        id: m.id,
        moodleSection: m.moodle_section,
        section: { id: m.section_id, key: m.section_key, description: m.section_description },
        activities: count.get(foldName(m.moodle_section)) ?? 0,
      }));
  }

  async proposals(courseId: number): Promise<SectionProposals> {
    await this.requireCourse(courseId);
    const [rows, sections, maps, activities, candidates] = await Promise.all([
      this.repo.proposals(courseId),
      this.repo.sections(),
      this.mapList(courseId),
      this.repo.moodleSectionsOfActivities(courseId),
      this.repo.weightCandidates(courseId),
    ]);
    const weights = proposeWeights(candidates);
    const names = new Map<string, string>();
    for (const a of activities)
      if (!names.has(foldName(a.moodle_section!)))
        names.set(foldName(a.moodle_section!), a.moodle_section!);
    return {
      proposals: rows.map((r) => ({
        activityId: r.id,
        description: r.description,
        moodleSection: r.moodle_section,
        current: r.section_id
          ? { id: r.section_id, key: r.current_key, description: r.current_description! }
          : null,
        proposed: { id: r.proposed_id, key: r.proposed_key, description: r.proposed_description },
        mapsMoodleSection: proposedBySectionName(r.moodle_section, r.proposed_id, sections),
      })),
      weights: candidates
        .filter((c) => weights.has(c.id))
        .map((c) => ({
          activityId: c.id,
          description: c.description,
          moodleSection: c.moodleSection,
          weighing: weights.get(c.id)!,
        })),
      maps,
      moodleSections: [...names.values()].sort((a, b) => a.localeCompare(b, 'es')),
      sections: sections.map(({ id, key, description }) => ({ id, key, description })),
    };
  }

  /** Records (or changes) the mapping of a Moodle section, found by name without accents or case. */
  private async map(
    courseId: number,
    moodleSection: string,
    sectionId: number,
    actor: AuthUser,
    db: Database,
  ): Promise<number> {
    const existing = (await this.repo.maps(courseId, db)).find(
      (m) => foldName(m.moodle_section) === foldName(moodleSection),
    );
    if (existing) {
      if (existing.section_id !== sectionId) await this.repo.updateMap(existing.id, sectionId, db);
      return existing.id;
    }
    return this.repo.insertMap(courseId, moodleSection, sectionId, actor.id, db);
  }

  /**
   * "Aplicar propuestas": files the activities in their proposed sections (all, or the listed
   * ones) and maps each Moodle section whose own name gave the proposal, for the next syncs; when
   * all are applied, also gives the graded activities their proposed weights (proposeWeights).
   */
  async apply(
    courseId: number,
    input: ApplySectionProposalsInput,
    actor: AuthUser,
    ip?: string,
  ): Promise<SectionProposalsApplied> {
    await this.requireCourse(courseId);
    const sections = await this.repo.sections();
    const { applied, mapIds, weighted } = await this.db.transaction().execute(async (trx) => {
      const applied = await this.repo.applyProposals(courseId, input.activity_ids, trx);
      const weighted = input.activity_ids
        ? 0
        : await this.repo.setWeights(
            proposeWeights(await this.repo.weightCandidates(courseId, trx)),
            trx,
          );
      const mapIds = new Set<number>();
      const done = new Set<string>();
      for (const a of applied) {
        if (!a.moodle_section || !a.section_id || done.has(foldName(a.moodle_section))) continue;
        if (!proposedBySectionName(a.moodle_section, a.section_id, sections)) continue;
        done.add(foldName(a.moodle_section));
        mapIds.add(await this.map(courseId, a.moodle_section, a.section_id, actor, trx));
      }
      return { applied, mapIds, weighted };
    });
    if (!applied.length && !weighted) throw conflict(MOODLE_SECTION_MSG.nothingToApply);
    await this.audit.record({
      userId: actor.id,
      action: 'update',
      entity: 'activities.sections',
      entityId: courseId,
      changes: {
        applied: applied.map((a) => ({ id: a.id, section_id: a.section_id })),
        maps: [...mapIds],
        weighted,
      },
      ip,
    });
    return { applied: applied.length, weighted, mapped: await this.mapList(courseId, mapIds) };
  }

  /** Maps a Moodle section to a SIGAF section and files the course's unfiled activities of that Moodle section there. */
  async saveMap(
    courseId: number,
    input: MoodleSectionMapInput,
    actor: AuthUser,
    ip?: string,
  ): Promise<{ map: MoodleSectionMap; filed: number }> {
    await this.requireCourse(courseId);
    const sections = await this.repo.sections();
    const section: SectionRef | undefined = sections.find((s) => s.id === input.section_id);
    if (!section) throw invalid({ section_id: [MOODLE_SECTION_MSG.sectionNotFound] });
    const formative = sections.find((s) => s.key === 'formative')?.id ?? null;
    const { id, filed } = await this.db.transaction().execute(async (trx) => {
      const id = await this.map(courseId, input.moodle_section, section.id, actor, trx);
      const wanted = foldName(input.moodle_section);
      const ids = (await this.repo.unfiled(courseId, formative, trx))
        .filter((a) => foldName(a.moodle_section!) === wanted)
        .map((a) => a.id);
      return { id, filed: await this.repo.fileActivities(ids, section.id, trx) };
    });
    await this.audit.record({
      userId: actor.id,
      action: 'update',
      entity: 'moodle_section_maps',
      entityId: id,
      changes: { courseId, moodleSection: input.moodle_section, sectionId: section.id, filed },
      ip,
    });
    return { map: (await this.mapList(courseId, new Set([id])))[0]!, filed };
  }

  async deleteMap(courseId: number, id: number, actor: AuthUser, ip?: string) {
    await this.requireCourse(courseId);
    if (!(await this.repo.deleteMap(courseId, id))) throw notFound(MOODLE_SECTION_MSG.mapNotFound);
    await this.audit.record({
      userId: actor.id,
      action: 'delete',
      entity: 'moodle_section_maps',
      entityId: id,
      changes: { courseId },
      ip,
    });
  }
}
