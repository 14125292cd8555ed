import { z } from 'zod';

/** Sections of synchronised activities: proposals from Moodle's course sections and the saved map of Moodle sections to SIGAF sections. */

export const MOODLE_SECTION_MSG = {
  applied: (activities: number, maps: number) =>
    `${activities === 1 ? '1 actividad quedó' : `${activities} actividades quedaron`} en la sección propuesta` +
    (maps
      ? `; ${maps} ${maps === 1 ? 'sección de Moodle queda asociada' : 'secciones de Moodle quedan asociadas'} para las próximas sincronizaciones.`
      : '.'),
  nothingToApply: 'No hay propuestas de sección pendientes en este curso.',
  weighted: (activities: number) =>
    `Se ${activities === 1 ? 'ponderó 1 actividad calificada' : `ponderaron ${activities} actividades calificadas`} (suman 100).`,
  mapSaved: (filed: number) =>
    `Asociación guardada.${filed ? ` ${filed === 1 ? '1 actividad quedó' : `${filed} actividades quedaron`} en la sección.` : ''}`,
  mapDeleted: 'Asociación eliminada. Las actividades ya asignadas se mantienen en su sección.',
  mapNotFound: 'La asociación no existe en este curso.',
  sectionNotFound: 'La sección no existe.',
  courseNotFound: 'El curso no existe.',
  moodleSectionRequired: 'Indique el nombre de la sección de Moodle.',
  moodleSectionMax: 'El nombre de la sección de Moodle admite hasta 255 caracteres.',
  sectionRequired: 'Seleccione una sección.',
  activityIds: 'Indique las actividades como una lista de identificadores.',
} as const;

const sectionId = z.coerce
  .number({ error: MOODLE_SECTION_MSG.sectionRequired })
  .int(MOODLE_SECTION_MSG.sectionRequired)
  .min(1, MOODLE_SECTION_MSG.sectionRequired)
  .max(2_147_483_647, MOODLE_SECTION_MSG.sectionRequired);

/** Body of POST /api/v2/sync/courses/{courseId}/section-proposals/apply: all pending proposals, or only these activities'. */
export const applySectionProposalsSchema = z
  .object({
    activity_ids: z
      .array(
        z.coerce
          .number({ error: MOODLE_SECTION_MSG.activityIds })
          .int(MOODLE_SECTION_MSG.activityIds)
          .min(1, MOODLE_SECTION_MSG.activityIds)
          .max(2_147_483_647, MOODLE_SECTION_MSG.activityIds),
        {
          error: MOODLE_SECTION_MSG.activityIds,
        },
      )
      .max(5000, MOODLE_SECTION_MSG.activityIds)
      .optional(),
  })
  .nullish()
  .transform((v) => v ?? {});
export type ApplySectionProposalsInput = z.infer<typeof applySectionProposalsSchema>;

/** Body of PUT /api/v2/sync/courses/{courseId}/section-maps: activities of this Moodle section go to this SIGAF section. */
export const moodleSectionMapSchema = z.object({
  moodle_section: z
    .string({ error: MOODLE_SECTION_MSG.moodleSectionRequired })
    .trim()
    .min(1, MOODLE_SECTION_MSG.moodleSectionRequired)
    .max(255, MOODLE_SECTION_MSG.moodleSectionMax),
  section_id: sectionId,
});
export type MoodleSectionMapInput = z.infer<typeof moodleSectionMapSchema>;

export interface SectionRef {
  id: number;
  key: string | null;
  description: string;
}

/** A new activity the sync could not file by a mapping, with the section proposed for it. */
export interface SectionProposal {
  activityId: number;
  description: string;
  /** The Moodle section it sits in. */
  moodleSection: string | null;
  current: SectionRef | null;
  proposed: SectionRef;
  /** Accepting it also maps the Moodle section (the proposal came from the section's name). */
  mapsMoodleSection: boolean;
}

/** A course's mapping Moodle section → SIGAF section. */
export interface MoodleSectionMap {
  id: number;
  moodleSection: string;
  section: SectionRef;
  /** The course's activities in that Moodle section. */
  activities: number;
}

/** A weight proposed for a graded activity of a course nobody has weighted yet. */
export interface WeightProposal {
  activityId: number;
  description: string;
  moodleSection: string | null;
  weighing: number;
}

/** GET /api/v2/sync/courses/{courseId}/section-proposals. */
export interface SectionProposals {
  proposals: SectionProposal[];
  /** Weights for the graded activities when every weight of the course is 0 (equal within each Moodle section, 100 in all). */
  weights: WeightProposal[];
  maps: MoodleSectionMap[];
  /** The Moodle sections of the course's activities (for a new mapping). */
  moodleSections: string[];
  /** SIGAF's sections, to choose from. */
  sections: SectionRef[];
}

export interface SectionProposalsApplied {
  applied: number;
  /** Activities given their proposed weight. */
  weighted: number;
  mapped: MoodleSectionMap[];
}
