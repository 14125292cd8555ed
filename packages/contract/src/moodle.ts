import { z } from 'zod';

/**
 * Moodle integration: what the server and the web app agree on (settings, sync reports, the
 * status texts stored from Moodle). The Moodle protocol itself lives in the server's moodle/.
 */

export const MOODLE_MSG = {
  urlRequired: 'La URL de Moodle es requerida.',
  urlInvalid: 'Ingrese una URL válida (http o https).',
  tokenRequired: 'El token de Moodle es requerido.',
  tokenInvalid: 'El token solo puede contener letras y números.',
  notConfigured: 'La plataforma no tiene configurada la conexión con Moodle (URL y token).',
  courseWithoutMoodle: 'El curso no tiene asociado un id de Moodle.',
  notEnrolled: 'El alumno no pertenece a este curso.',
  saved: 'Configuración de Moodle guardada.',
  connectionOk: 'Conexión exitosa con Moodle.',
  tokenForNewUrl:
    'Para otra URL ingrese también su token: el token guardado solo se envía a la URL guardada.',
  connectionMissing: (n: number) =>
    `Conexión exitosa, pero el servicio web no permite ${n} función(es) requerida(s).`,
  syncOk: 'Sincronización exitosa',
  identityFieldsMissing:
    'Moodle no entregó el nombre de usuario ni el número de ID de ningún participante: el usuario del token necesita la capacidad moodle/user:viewalldetails en el curso (o que el sitio muestre "idnumber" en showuseridentity). No se aplicó ningún cambio.',
  hiddenActivitiesNotVisible: (n: number) =>
    `${n} actividad(es) oculta(s) en Moodle no aparecen en el contenido del curso porque el usuario del token no tiene la capacidad moodle/course:viewhiddenactivities; siguen en las calificaciones o el avance de Moodle, así que se marcan como ocultas, no como eliminadas. Una actividad oculta sin calificaciones ni avance no se puede distinguir de una eliminada: agregue esa capacidad al usuario del token.`,
  hiddenDetail: 'Oculta en Moodle',
  accountSuspended: 'Cuenta suspendida en Moodle',
  enrolmentSuspended: 'Matrícula suspendida en Moodle',
  identityHiddenDetail:
    'Moodle no entrega su nombre de usuario al usuario del token y su número de ID no es un RUT: no se puede reconocer',
  identityPartial: (hidden: number, unverified: number) =>
    `Moodle no entregó el nombre de usuario de ${hidden} estudiante(s) sin RUT en su número de ID (el usuario del token necesita moodle/user:viewalldetails o "username" en showuseridentity); ${unverified} matriculado(s) de SIGAF no encontrados se dejaron como estaban, sin marcarlos "Sin sincronizar".`,
  hiddenFromTokenDetail: 'Oculta en Moodle (el usuario del token no ve actividades ocultas)',
  unseenDetail: 'No visible para el token: eliminada u oculta',
  activitiesUnseen: (n: number) =>
    `${n} actividad(es) ya no aparecen en Moodle para el usuario del token, y no se pudo confirmar que ese usuario vea actividades ocultas (capacidad moodle/course:viewhiddenactivities): pueden estar eliminadas u ocultas, SIGAF no puede saberlo. Se conservan con sus resultados y siguen contando en el avance hasta que una sincronización lo aclare o un administrador confirme la eliminación en Actividades.`,
  hiddenActivitiesUnconfirmed:
    'No se pudo confirmar que el usuario del token vea las actividades ocultas (capacidad moodle/course:viewhiddenactivities). Sin ella, Moodle no entrega las actividades ocultas y SIGAF no puede distinguirlas de las eliminadas: las marcará «No visible para el token: eliminada u oculta» y las conservará, contando en el avance, hasta que un administrador confirme la eliminación. Para evitarlo, dé esa capacidad al rol del usuario del token en los cursos.',
  removalNotUnseen:
    'Solo se puede confirmar la eliminación de una actividad marcada «No visible para el token: eliminada u oculta».',
  removalConfirmed: 'Eliminación confirmada: la actividad queda como eliminada en Moodle.',
  syncQueued: 'Sincronización en cola.',
  syncRunning: 'Ya hay una sincronización en curso para este curso.',
  syncStarted: 'Sincronización iniciada.',
  syncFailed: 'La sincronización falló; los datos anteriores se conservan.',
  userNotInMoodle: 'El usuario no se encuentra registrado en moodle',
  noCourseForMoodleId: 'No hay cursos con ese id de Moodle.',
  neverSynced: 'El curso aún no se ha sincronizado.',
  refusedValues: (n: number) =>
    `Moodle entregó ${n} valor(es) fuera de rango: no se guardaron y se conservan los datos anteriores de esos campos (ver «Valores rechazados»); el resto del curso se sincronizó.`,
  refusedTime:
    'Fecha fuera de rango: se aceptan fechas desde el 1 de enero de 2000 hasta un día después de hoy.',
  refusedGrade:
    'Calificación fuera de rango: se acepta un número entre -99999,99999 y 99999,99999.',
  refusedState: 'Estado de finalización desconocido: Moodle usa 0 (incompleta) a 3 (reprobada).',
  refusedId: 'Id de Moodle no válido: debe ser un entero positivo.',
} as const;

/** Settings body of PUT /api/v2/platforms/{id}/moodle. The token is write-only. */
export const moodleSettingsSchema = z.object({
  url: z
    .string({ error: MOODLE_MSG.urlRequired })
    .trim()
    .min(1, MOODLE_MSG.urlRequired)
    .max(500, MOODLE_MSG.urlInvalid)
    .refine((v) => {
      try {
        const u = new URL(v);
        return u.protocol === 'http:' || u.protocol === 'https:';
      } catch {
        return false;
      }
    }, MOODLE_MSG.urlInvalid),
  /** Omitted: keep the stored token. */
  token: z
    .string({ error: MOODLE_MSG.tokenRequired })
    .trim()
    .min(1, MOODLE_MSG.tokenRequired)
    .max(128, MOODLE_MSG.tokenInvalid)
    .regex(/^[A-Za-z0-9]+$/, MOODLE_MSG.tokenInvalid)
    .optional(),
});
export type MoodleSettingsInput = z.infer<typeof moodleSettingsSchema>;

/** Body of POST /api/v2/platforms/{id}/moodle/test: unsaved values to try, else the stored ones. */
export const moodleTestSchema = z
  .object({
    url: moodleSettingsSchema.shape.url.optional(),
    token: moodleSettingsSchema.shape.token,
  })
  .nullish()
  .transform((v) => v ?? {});

/** Body of POST /api/v2/sync/courses/{courseId}. */
export const moodleSyncRequestSchema = z
  .object({
    /** Run now in this request and answer the report, instead of queueing a job (202). */
    wait: z.boolean().optional(),
  })
  .nullish()
  .transform((v) => v ?? {});

/**
 * What activity_course_users.status_moodle holds, from Moodle's activity completion:
 * finished (complete, passed or failed), started (some completion rule met), not started.
 */
export const MOODLE_ACTIVITY_STATUS = {
  finished: 'Finalizado',
  inProgress: 'En curso',
  notStarted: 'No iniciado',
} as const;

/** Per-enrolment state from the course's Renuncia-section activity (docs/development/domain.md#student-state). */
export const MOODLE_STUDENT_STATUS = {
  active: 'Activo',
  resigning: 'Renuncia en curso',
  resigned: 'Renunciado',
  noActivities: 'Sin actividades sincronizadas',
} as const;

/** Moodle module names (activities.type) shown with the original's Spanish activity families. */
export const MOODLE_MODULE_LABELS: Record<string, string> = {
  assign: 'Tareas',
  forum: 'Foros',
  quiz: 'Cuestionarios',
  feedback: 'Encuestas',
  survey: 'Encuestas',
  questionnaire: 'Encuestas',
  choice: 'Encuestas',
  page: 'Páginas',
  url: 'Enlaces',
  resource: 'Archivos',
  scorm: 'Paquetes SCORM',
  h5pactivity: 'H5P',
  lesson: 'Lecciones',
  book: 'Libros',
};

export type MoodleSyncScope = 'full' | 'users' | 'activities' | 'student';

export interface MoodleSyncIssue {
  /** Where the problem is: a local enrolment or a Moodle user. */
  source: 'local' | 'moodle';
  /** Local enrolment id or Moodle user id. */
  id: number;
  rut: string | null;
  name: string;
  detail?: string;
}

/** The report of one course sync (also the job's result). */
/** An activity named in a sync's report. */
export interface MoodleSyncActivity {
  /** Moodle course module id. */
  cmid: number;
  name: string;
  detail?: string;
}

/**
 * A value Moodle sent outside the range SIGAF accepts: not stored, the field keeps what it had
 * (a student's last access, an activity result, the course total), or the record is not used (an id).
 */
export interface MoodleSyncRefused {
  /** The student the value is about (name and RUT, or Moodle's name), if any. */
  student: string | null;
  /** The activity the value is about (name), if any. */
  activity: string | null;
  /** Moodle's field: lastcourseaccess, lastaccess, graderaw, state, timecompleted, id. */
  field: string;
  /** The value as Moodle sent it. */
  value: string;
  /** Why it was refused. */
  detail: string;
}

export interface MoodleSyncResult {
  courseId: number;
  courseMoodleId: number;
  /** full: everything; users: people only; activities: the course's activities only; student: one person. */
  scope: MoodleSyncScope;
  /** People whose RUT is not valid, on either side: they cannot be matched. */
  invalidRuts: MoodleSyncIssue[];
  /** Local enrolments matched with a Moodle user. */
  found: number;
  /** Local enrolments (valid RUT) without a Moodle user enrolled in the course. */
  missingInMoodle: MoodleSyncIssue[];
  /** Moodle students (valid RUT) not enrolled in the local course. */
  missingLocally: MoodleSyncIssue[];
  /**
   * Moodle students whose RUT could be in their username, which Moodle did not send to the
   * token's user: not recognised, and not counted as invalid nor missing (absent from results of
   * older versions).
   */
  identityHidden?: MoodleSyncIssue[];
  activitiesAdded: number;
  activitiesUpdated: number;
  /** Activities Moodle no longer has: marked "Eliminada en Moodle", kept for history, out of progress. */
  activitiesRemoved: number;
  /** The activities marked removed by this sync (absent from a results of older versions). */
  removedActivities?: MoodleSyncActivity[];
  /**
   * The course's activities hidden in Moodle: listed in its contents with visible 0, or missing
   * from them while Moodle's grade report or completion still has them (the token's user cannot
   * see hidden activities; they are kept as hidden, not removed).
   */
  hiddenActivities?: MoodleSyncActivity[];
  /**
   * Activities missing from every Moodle list while the token's user may not see hidden
   * activities: deleted or hidden, SIGAF cannot tell; kept, results and progress included, until a
   * sync can tell or staff confirm the removal (absent from results of older versions).
   */
  unseenActivities?: MoodleSyncActivity[];
  /** Matched students whose enrolment is suspended in Moodle (their grades were read one by one). */
  suspended: number;
  /** Those students, by name (absent from results of older versions). */
  suspendedStudents?: MoodleSyncIssue[];
  /** Enrolments, students and activity results written (changed rows only). */
  rowsWritten: number;
  /** Values out of range, not stored (absent from results of older versions). */
  refused?: MoodleSyncRefused[];
  /** Non-fatal problems (one student's completion could not be read...). */
  errors: string[];
  moodleCalls: number;
  startedAt: string;
  finishedAt: string;
}

export interface MoodleSyncProgress {
  phase: 'contents' | 'users' | 'grades' | 'completion' | 'writing' | 'done';
  done: number;
  total: number;
  message: string;
}

export type MoodleSyncState = 'running' | 'done' | 'failed' | 'queued';

// --- Import from Moodle, push to Moodle, scheduled sync ----------------------------------------

export const MOODLE_MSG_MORE = {
  importOk: 'Curso importado desde Moodle.',
  importLinked: 'El curso ya estaba vinculado; se actualizaron sus datos.',
  moodleCourseNotFound: 'No existe un curso con ese id en Moodle.',
  moodleCourseIdInvalid: 'Ingrese un id de curso de Moodle válido.',
  pushQueued: 'Envío a Moodle en cola.',
  pushRunning: 'Ya hay un envío a Moodle en curso para este curso.',
  pushNothing: 'Seleccione al menos una acción para enviar a Moodle.',
  pushNeverRun: 'Aún no se han enviado datos de este curso a Moodle.',
  noStudentRole: 'No se pudo determinar el rol de estudiante en Moodle; no se matriculó a nadie.',
  /** Moodle enrolled them, then failed sending the welcome message of the manual enrolment. */
  enrolledWelcomeNotSent: (n: number) =>
    `${n === 1 ? 'Se matriculó 1 alumno' : `Se matricularon ${n} alumnos`} en Moodle, pero Moodle no pudo enviar el mensaje de bienvenida de la matrícula (revise el correo saliente de Moodle).`,
  /** Some of them were not enrolled: names and Moodle's reason. */
  enrolFailed: (ruts: readonly string[], reason: string) =>
    `No se pudo matricular en Moodle a ${ruts.length} alumno(s) (${ruts.join(', ')}): ${reason}`,
} as const;

/** Body of POST /api/v2/platforms/{id}/moodle/import. */
export const moodleImportSchema = z.object({
  moodleCourseId: z.coerce
    .number({ error: MOODLE_MSG_MORE.moodleCourseIdInvalid })
    .int(MOODLE_MSG_MORE.moodleCourseIdInvalid)
    .min(2, MOODLE_MSG_MORE.moodleCourseIdInvalid)
    .max(2_147_483_647, MOODLE_MSG_MORE.moodleCourseIdInvalid),
});
export type MoodleImportInput = z.infer<typeof moodleImportSchema>;

/** Query of GET /api/v2/platforms/{id}/moodle/courses: one Moodle category's courses. */
export const moodleCoursesQuerySchema = z.object({
  category: z.coerce
    .number({ error: MOODLE_MSG_MORE.moodleCourseIdInvalid })
    .int()
    .min(1)
    .max(2_147_483_647),
});

export interface MoodleCategoryItem {
  id: number;
  name: string;
  parent: number;
  depth: number;
  path: string;
  courseCount: number;
  /** The local category linked to it on this platform, if any. */
  localCategoryId: number | null;
}

export interface MoodleCourseItem {
  id: number;
  shortname: string;
  fullname: string;
  categoryId: number;
  /** The local course linked to it on this platform, if any. */
  localCourseId: number | null;
}

export interface MoodleImportResult {
  category: { id: number; description: string; created: boolean };
  course: { id: number; description: string; created: boolean };
}

/** Body of POST /api/v2/sync/courses/{courseId}/push: what to send to Moodle. */
export const moodlePushRequestSchema = z
  .object({
    /** Create the students Moodle does not have (username = RUT without dots, lower case). */
    createUsers: z.boolean().default(true),
    /** Enrol the course's students in the Moodle course as students. */
    enrol: z.boolean().default(true),
    /** Mirror classrooms as Moodle groups with their members. */
    groups: z.boolean().default(true),
    /** Enrol again students who were in the Moodle course and are no longer (unenrolled there, perhaps on purpose). */
    reenrol: z.boolean().default(false),
  })
  .nullish()
  .transform((v) => v ?? { createUsers: true, enrol: true, groups: true, reenrol: false })
  .refine((v) => v.createUsers || v.enrol || v.groups, MOODLE_MSG_MORE.pushNothing);
export type MoodlePushRequest = z.infer<typeof moodlePushRequestSchema>;

/** The report of one push to Moodle (also the job's result). */
export interface MoodlePushResult {
  courseId: number;
  courseMoodleId: number;
  options: MoodlePushRequest;
  /** Moodle's student role id used for enrolments (checked by its shortname). */
  studentRoleId: number | null;
  /** Students created in Moodle. */
  usersCreated: number;
  /** Students Moodle already had (by username or idnumber) but not in the course. */
  usersLinked: number;
  /** Students enrolled in the Moodle course now. */
  enrolled: number;
  /** Students already enrolled. */
  alreadyEnrolled: number;
  groupsCreated: number;
  membersAdded: number;
  /** Students that could not be sent (no valid RUT, no e-mail, e-mail taken...). */
  skipped: MoodleSyncIssue[];
  /** Students Moodle's course had and no longer has, not enrolled again (the push did not ask to). */
  notReenrolled: MoodleSyncIssue[];
  errors: string[];
  moodleCalls: number;
  startedAt: string;
  finishedAt: string;
}

export interface MoodlePushProgress {
  phase: 'reading' | 'users' | 'enrol' | 'groups' | 'done';
  done: number;
  total: number;
  message: string;
}

/** Username SIGAF gives a student it creates in Moodle: the RUT without dots, lower case ("12345678-k"). */
export function moodleUsernameOf(rut: string): string {
  return rut.replace(/\./g, '').toLowerCase();
}
