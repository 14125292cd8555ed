import { z } from 'zod';
import type { StudentActivityRow, StudentState } from './dashboard.js';
import { listQuerySchema } from './envelope.js';
import { mailMassiveSchema, type MailStatus } from './mail.js';
import { FORM_MSG, queryFlag } from './resources.js';
import { parseIdList } from './tickets.js';
import type { StudentSummary } from './students.js';

/**
 * Student follow-up (Seguimiento, `/my/seguimiento-alumnos`): the tutors of each classroom, the
 * paginated student table of a course, one student's detail, and mail to chosen enrolments.
 * A user with role tutor sees only the classrooms assigned to them, on every follow-up call.
 */

export const FOLLOW_UP_MSG = {
  classroomForbidden:
    'No tiene acceso a esta aula. Solo puede consultar las aulas que tiene asignadas como tutor.',
  courseForbidden: 'No tiene aulas asignadas con estudiantes en este curso.',
  enrolmentForbidden:
    'No tiene acceso a este estudiante. Solo puede consultar las aulas que tiene asignadas como tutor.',
  enrolmentNotFound: 'La matrícula no existe.',
  classroomNotFound: 'El aula no existe.',
  notTutor: (ids: number[]) =>
    `Solo se pueden asignar usuarios con rol Tutor. No lo son: ${ids.join(', ')}.`,
  tutorsSaved: (classroom: string, n: number) =>
    n === 0
      ? `El ${classroom} quedó sin tutores.`
      : `Se ${n === 1 ? 'asignó 1 tutor' : `asignaron ${n} tutores`} al ${classroom}.`,
  selectStudents: 'Debe seleccionar al menos un estudiante.',
  enrolmentsNotFound: (ids: number[]) => `No existen las matrículas: ${ids.join(', ')}.`,
  noRecipients: 'Ninguno de los estudiantes seleccionados tiene un correo electrónico registrado.',
} as const;

/** Student states as filters: Activo, Renuncia en curso, Renunciado (the dashboard's withdrawal stages 0, 1, 2). */
export const FOLLOW_UP_STATUSES = ['active', 'resigning', 'resigned'] as const;
export type FollowUpStatus = (typeof FOLLOW_UP_STATUSES)[number];

/** Sort keys of the student table. */
export const FOLLOW_UP_SORTS = [
  'rut',
  'name',
  'email',
  'classroom',
  'status',
  'lastAccess',
  'progress',
  'openTickets',
] as const;
export type FollowUpSort = (typeof FOLLOW_UP_SORTS)[number];

/** Largest "without access for more than N days" the filter takes (10 years). */
export const FOLLOW_UP_MAX_DAYS = 3650;
/** Most rows one export writes. */
export const FOLLOW_UP_EXPORT_LIMIT = 20_000;

const MAX_ID = 2_147_483_647;
const blank = (v: unknown) =>
  typeof v === 'string' && v.trim() === '' ? undefined : v === null ? undefined : v;
const optionalId = z.preprocess(
  blank,
  z.coerce
    .number({ error: FORM_MSG.option })
    .int(FORM_MSG.option)
    .positive(FORM_MSG.option)
    .max(MAX_ID, FORM_MSG.option)
    .optional(),
);

/** The filters of the student table and its export. */
export const followUpFiltersSchema = z.object({
  search: z.preprocess(blank, z.string().trim().max(200, FORM_MSG.max(200)).optional()),
  classroom_id: optionalId,
  status: z.preprocess(blank, z.enum(FOLLOW_UP_STATUSES, { error: FORM_MSG.option }).optional()),
  /** Without access for more than N days, never included. */
  inactive_days: z.preprocess(
    blank,
    z.coerce
      .number({ error: FORM_MSG.number })
      .int(FORM_MSG.number)
      .min(0, FORM_MSG.numberMin(0))
      .max(FOLLOW_UP_MAX_DAYS, FORM_MSG.numberMax(FOLLOW_UP_MAX_DAYS))
      .optional(),
  ),
  /** Progress below X % (students with no graded activity to do have no progress and are left out). */
  progress_below: z.preprocess(
    blank,
    z.coerce
      .number({ error: FORM_MSG.number })
      .min(0, FORM_MSG.numberMin(0))
      .max(100, FORM_MSG.numberMax(100))
      .optional(),
  ),
  /** Only students with at least one open ticket in the course. */
  open_tickets: queryFlag,
  sort: z.preprocess(blank, z.enum(FOLLOW_UP_SORTS, { error: FORM_MSG.option }).optional()),
  order: z.preprocess(blank, z.enum(['asc', 'desc'], { error: FORM_MSG.option }).optional()),
});
export type FollowUpFilters = z.infer<typeof followUpFiltersSchema>;

/** GET /follow-up/courses/{course}/students. */
export const followUpStudentsQuerySchema = listQuerySchema
  .omit({ search: true, sort: true, order: true })
  .extend(followUpFiltersSchema.shape);
export type FollowUpStudentsQuery = z.infer<typeof followUpStudentsQuerySchema>;

/** PUT /classrooms/{id}/tutors: the whole set of tutors of a classroom (empty removes them all). */
export const classroomTutorsSchema = z.object({
  user_ids: z.preprocess(
    (v) => (typeof v === 'string' ? (v.trim() === '[]' ? [] : (parseIdList(v) ?? v)) : v),
    z
      .array(
        z.coerce
          .number({ error: FORM_MSG.option })
          .int(FORM_MSG.option)
          .positive(FORM_MSG.option)
          .max(MAX_ID, FORM_MSG.option),
        { error: FORM_MSG.option },
      )
      .max(200, 'Puede asignar como máximo 200 tutores.')
      .transform((ids) => [...new Set(ids)]),
  ),
});
export type ClassroomTutorsInput = z.infer<typeof classroomTutorsSchema>;

/** POST /follow-up/mail and /follow-up/mail/preview: the massive mail's content, to chosen enrolments. */
export const followUpMailSchema = mailMassiveSchema.omit({ ticketsId: true }).extend({
  enrolmentIds: z.preprocess(
    (v) => (typeof v === 'string' ? (parseIdList(v) ?? v) : v),
    z
      .array(
        z.coerce.number({ error: FOLLOW_UP_MSG.selectStudents }).int().positive().max(MAX_ID),
        { error: FOLLOW_UP_MSG.selectStudents },
      )
      .min(1, FOLLOW_UP_MSG.selectStudents)
      .max(5000, 'Puede seleccionar como máximo 5000.')
      .transform((ids) => [...new Set(ids)]),
  ),
});
export type FollowUpMailInput = z.infer<typeof followUpMailSchema>;

// ---------------------------------------------------------------------------------------------
// Answers

export interface TutorRef {
  id: number;
  name: string;
  email: string;
}

/** `_data` of GET /courses/{courseId}/classrooms/{id}/tutors. */
export interface ClassroomTutors {
  course: { id: number; description: string };
  classroom: { id: number; description: string };
  /** The tutors assigned to the classroom. */
  tutors: TutorRef[];
  /** Every user with role tutor (the choices). */
  candidates: TutorRef[];
}

/** A course of the follow-up selector (a tutor gets those where their classrooms have students). */
export interface FollowUpCourse {
  id: number;
  description: string;
  lastSyncAt: string | null;
  category: { id: number; description: string };
}

/** A classroom of a course, with its number of enrolled students. */
export interface FollowUpClassroom {
  id: number;
  description: string;
  students: number;
}

/** One enrolment of the student table (`properties`). `id` is the enrolment id. */
export interface FollowUpStudent extends StudentSummary {
  registeredUserId: number;
  phone: string | null;
  classroomId: number | null;
  classroom: string | null;
  status: StudentState;
  /** 0 Activo, 1 Renuncia en curso, 2 Renunciado. */
  stage: number;
  form: 'A' | 'B';
  lastAccess: string | null;
  /** Moodle's own text of the last access, when the sync stored one. */
  lastAccessText: string | null;
  /** Days since the last access (whole days), null when never. */
  daysWithoutAccess: number | null;
  /** Whole percent of the graded activities the student has to do that have a grade; null when there are none. */
  progress: number | null;
  graded: number;
  expected: number;
  openTickets: number;
  tickets: number;
  synced: boolean;
  /** The enrolment is suspended in Moodle. */
  suspended: boolean;
}

/** `_data` of GET /follow-up/enrolments/{id}. Tickets come as the ticket list's resources. */
export interface FollowUpStudentDetail {
  student: FollowUpStudent;
  course: { id: number; description: string };
  activities: Array<
    StudentActivityRow & {
      section: string | null;
      sectionKey: string | null;
      weighing: number;
      counts: boolean;
    }
  >;
  /** The latest mails written to the student (newest first): each counts as a contact. */
  mails: Array<{
    id: number;
    subject: string;
    status: MailStatus;
    createdAt: string;
    ticketId: number | null;
  }>;
}

/** `_data` of POST /follow-up/mail/preview. */
export interface FollowUpMailPreview {
  /** Messages that would be queued (selected students with an e-mail address). */
  count: number;
  /** Selected students without an e-mail address. */
  skipped: Array<{ enrolmentId: number; name: string }>;
  /** The first message, rendered for its student. */
  sample: { to: string; subject: string; html: string; text: string } | null;
}

/** `_data` of POST /follow-up/mail. */
export interface FollowUpMailResult {
  queued: number;
  messages: number[];
  skipped: Array<{ enrolmentId: number; reason: string }>;
}
