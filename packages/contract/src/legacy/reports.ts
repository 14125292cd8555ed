import { z } from 'zod';
import { legacyEnvelope, legacyHref } from './common.js';
import { legacyChartAnswer, legacyChartData, legacyStudentCard } from './dashboard.js';

/**
 * docs/development/original-api.md §2.19 Reports: the ticket report (views/report/TicketReport.vue) with its
 * download, and the student follow-up report (views/report/FollowStudentReport.vue); both in
 * store/modules/report.js. `{date}` is `DD-MM-YYYY` of the clicked day chip, or the literal
 * `undefined` when the chip is un-toggled (§1.7).
 */

/** §2.19 GET `/api/v2/reports/courses/{course}/type-ticket/{date}`: `_data` stored whole, five doughnuts. */
export const reportsTypeTicket = legacyEnvelope(
  z.looseObject({
    status: z.looseObject({ chartData: legacyChartData }),
    source: z.looseObject({ chartData: legacyChartData }),
    type: z.looseObject({ chartData: legacyChartData }),
    priority: z.looseObject({ chartData: legacyChartData }),
    motive: z.looseObject({ chartData: legacyChartData }),
  }),
);

/** One row of "Producción del día", keyed by `operator`; `attemps` is the original's spelling. */
export const legacyOperatorRow = z.looseObject({
  operator: z.string(),
  tickets: z.number().int().min(0),
  close: z.number().int().min(0),
  attemps: z.number().int().min(0),
});

/** §2.19 GET `/api/v2/reports/courses/{course}/table-operator/{date}`: the table and the polar "Intentos según estado". */
export const reportsTableOperator = legacyEnvelope(
  z.looseObject({ table: z.array(legacyOperatorRow), chartData: legacyChartData }),
);

/** §2.19 GET `/api/v2/reports/courses/{course}/data-card/{date}`: "Tickets nuevos" (`'+' + newTicket`), totales, abiertos, cerrados. */
export const reportsDataCard = legacyEnvelope(
  z.looseObject({
    newTicket: z.number().int().min(0),
    total: z.number().int().min(0),
    open: z.number().int().min(0),
    close: z.number().int().min(0),
  }),
);

/**
 * §2.19 GET `/api/v2/reports/courses/{course}/excel` ("Descargar reporte"): only the top-level
 * `success` is read; when true the client asks for `excel-download`.
 */
export const reportsExcel = legacyEnvelope(z.looseObject({ href: legacyHref.optional() })).refine(
  (a) => a.success === true,
  'success: true',
);

/**
 * §2.19 GET `/api/v2/reports/courses/{course}/excel-download`: bytes fetched as a blob and saved
 * as `file.xlsx` whatever they are; an .xlsx is a zip (starts with `PK`).
 */
export const reportsExcelDownload = z.custom<Uint8Array>(
  (b) => b instanceof Uint8Array && b.length > 4 && b[0] === 0x50 && b[1] === 0x4b,
  'un libro .xlsx (zip que empieza con PK)',
);

/** §2.19 GET `api/v2/course-registered-users/{course}/classrooms/{classroomDescription}/follow-student-classroom`: four stat cards. */
export const courseRegisteredUsersFollowStudentClassroom = legacyEnvelope(legacyStudentCard);
/** §2.19 GET `/api/v2/course-registered-users/{course}/classrooms/{classroomDescription}/status-user-classroom`: "Alumnos según estado". */
export const courseRegisteredUsersStatusUserClassroom = legacyChartAnswer;
/** §2.19 GET `/api/v2/course-registered-users/{course}/classrooms/{classroomDescription}/progress-classroom-chart`. */
export const courseRegisteredUsersProgressClassroomChart = legacyChartAnswer;
/** §2.19 GET `/api/v2/course-registered-users/{course}/classrooms/{classroomDescription}/sections/{sectionDescription}/progress-activities`. */
export const courseRegisteredUsersProgressActivities = legacyChartAnswer;
/** §2.19 GET `/api/v2/course-registered-users/{course}/classrooms/{classroomDescription}/sections/{sectionDescription}/progress-activities-avance`. */
export const courseRegisteredUsersProgressActivitiesAvance = legacyChartAnswer;
