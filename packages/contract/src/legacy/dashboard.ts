import { z } from 'zod';
import { legacyEnvelope } from './common.js';

/**
 * docs/development/original-api.md §2.18 Dashboard ("Estadística", views/Dashboard.vue; store/modules/dashboard.js):
 * every call of the screen, on load (course 2, hard-coded, §4) and after "Buscar".
 */

/**
 * The chart data handed unchanged to vue-chartjs / Chart.js 2.9 (§2.18, every chart): `labels` and
 * every `datasets[].data` must be arrays (the horizontal-bar tooltip indexes `labels[i]`).
 */
export const legacyChartData = z.looseObject({
  labels: z.array(z.string()),
  datasets: z.array(
    z.looseObject({
      data: z.array(z.number()),
      backgroundColor: z.union([z.string(), z.array(z.string())]),
      label: z.string().optional(),
    }),
  ),
});

/** `{ success, _data: { chartData } }`: what every chart call is read for (drawn only once `success` is true). */
export const legacyChartAnswer = legacyEnvelope(z.looseObject({ chartData: legacyChartData }));

/**
 * The four ticket counts: the WHOLE body is the number, no envelope (§2.18, §5.10); the store
 * commits `data` as is and the card shows `'+' + body` (an envelope would show "[object Object]").
 */
export const legacyBareCount = z.number().int().min(0);

/** §2.18 #1 GET `api/v2/tickets/{c}/last-day/count`: "Tickets nuevos". */
export const ticketsLastDayCount = legacyBareCount;
/** §2.18 #2 GET `api/v2/tickets/{c}/open/count`: "Ticket abiertos". */
export const ticketsOpenCount = legacyBareCount;
/** §2.18 #3 GET `api/v2/tickets/{c}/close/count`: "Ticket cerrados". */
export const ticketsCloseCount = legacyBareCount;
/** §2.18 #4 GET `api/v2/tickets/{c}/total/count`: "Tickets totales" (also on load for course 2, §4). */
export const ticketsTotalCount = legacyBareCount;

/** The two datasets Abierto / Cerrado of the stacked bars, one value per label. */
const openClosedChart = legacyEnvelope(
  z.looseObject({
    chartData: legacyChartData.refine(
      (c) => c.datasets.length === 2 && c.datasets.every((d) => d.data.length === c.labels.length),
      'dos conjuntos (Abierto, Cerrado) con un valor por etiqueta',
    ),
  }),
);

/** §2.18 #5 GET `/api/v2/tickets/{c}/status-motive-chart`: stacked bar "Estado de ticket según motivo". */
export const ticketsStatusMotiveChart = openClosedChart;
/** §2.18 #6 GET `/api/v2/tickets/{c}/type-chart`: doughnut "Tipo según tipo". */
export const ticketsTypeChart = legacyChartAnswer;
/** §2.18 #7 GET `/api/v2/tickets/{c}/motive-chart`: polar "Ticket según motivo" (percentages). */
export const ticketsMotiveChart = legacyChartAnswer;
/** §2.18 #8 GET `/api/v2/tickets/{c}/age-chart`: bar "Ticket según antigüedad". */
export const ticketsAgeChart = legacyChartAnswer;
/** §2.18 #9 GET `/api/v2/tickets/{c}/source-chart`: doughnut "Ticket según origen" (also on load for course 2, §4). */
export const ticketsSourceChart = legacyChartAnswer;
/** §2.18 #10 GET `/api/v2/tickets/{c}/priority-chart`: doughnut "Ticket según prioridad". */
export const ticketsPriorityChart = legacyChartAnswer;
/** §2.18 #11 GET `/api/v2/tickets/{c}/status-chart`: doughnut "Ticket según estado". */
export const ticketsStatusChart = legacyChartAnswer;
/** §2.18 #12 GET `/api/v2/course-registered-users/{c}/status/count`: doughnut "Alumnos según estado". */
export const courseRegisteredUsersStatusCount = legacyChartAnswer;
/** §2.18 #13 GET `/api/v2/course-registered-users/{c}/logged-time/count`: doughnut "Alumnos según último acceso". */
export const courseRegisteredUsersLoggedTimeCount = legacyChartAnswer;
/** §2.18 #14 GET `/api/v2/tickets/{c}/status-operator-chart`: stacked bar "Estado de ticket según operador". */
export const ticketsStatusOperatorChart = openClosedChart;

/** The student card: numbers shown with `'' +` ("Renuncias", "Activos", "Inactivos", "Matrícula inicial"). */
export const legacyStudentCard = z.looseObject({
  resign: z.number().int().min(0),
  active: z.number().int().min(0),
  inactive: z.number().int().min(0),
  total: z.number().int().min(0),
});

/** §2.18 #15 GET `/api/v2/course-registered-users/{c}/follow-student-card`. */
export const courseRegisteredUsersFollowStudentCard = legacyEnvelope(legacyStudentCard);
/** §2.18 #16 GET `/api/v2/course-registered-users/{c}/progress-chart`: "Progreso de actividades calificadas según unidad (%)". */
export const courseRegisteredUsersProgressChart = legacyChartAnswer;
/** §2.18 #17 GET `/api/v2/course-registered-users/{c}/progress-chart-avance`: "Progreso de actividades realizadas según unidad (%)". */
export const courseRegisteredUsersProgressChartAvance = legacyChartAnswer;
