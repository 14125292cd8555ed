import zlib from 'node:zlib';
import {
  ATTEMPT_RESULT_LOOKS,
  FIGURE_COLOURS,
  PRIORITY_LOOKS,
  STATUS_COLORS,
  TICKET_STATUS_LOOKS,
} from '@sigaf/contract';
import { beforeAll, expect, it } from 'vitest';
import { ticketKeys } from './data.js';
import { seedCourse } from './data.js';
import { fileContext } from './helpers.js';

/**
 * One colour per state everywhere (STATE_LOOKS in the contract): the dashboard's charts, the
 * report's day charts and the PDF drawn from them colour Abierto/Cerrado, Alta/Media/Baja and
 * Exitoso/Fallido alike, whatever the catalogue order.
 */
const file = fileContext();
const DAY = '10-03-2024';
let course: number;

type Chart = { labels: string[]; datasets: Array<{ label?: string; backgroundColor: string[] }> };
const colourOf = (chart: Chart, label: string) =>
  chart.datasets[0]!.backgroundColor[chart.labels.indexOf(label)];
const get = async (path: string) => {
  const res = await file.ctx.request({ method: 'GET', url: `/api/v2/${path}`, token: file.admin });
  expect(res.statusCode, res.body.slice(0, 200)).toBe(200);
  return res;
};

beforeAll(async () => {
  const db = file.ctx.db;
  const seeded = await seedCourse(db, {
    categoryCode: 'COL',
    course: 'Colores',
    students: 3,
    firstRut: 15_500_000,
  });
  course = seeded.course;
  const k = await ticketKeys(db);
  const admin = (await db.selectFrom('users').select('id').orderBy('id').executeTakeFirstOrThrow())
    .id;
  const tickets: Array<[number, number, string | null]> = [
    [k.high, k.closed, '2024-03-10T20:00:00Z'],
    [k.medium, k.open, null],
    [k.low, k.open, null],
  ];
  for (const [i, [priority, status, closing]] of tickets.entries()) {
    const t = await db
      .insertInto('tickets')
      .values({
        course_registered_user_id: seeded.enrolments[i]!.id,
        course_id: course,
        ticket_code: `COL-${i}`,
        created_at: '2024-03-10T15:00:00Z',
        closing_date: closing,
        status_ticket_id: status,
        type_ticket_id: k.phone,
        priority_ticket_id: priority,
        source_ticket_id: k.incoming,
        motive_ticket_id: k.welcome,
        user_create_id: admin,
        user_assigned_id: admin,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const outcome = i === 0 ? k.success : k.failure;
    await db
      .insertInto('ticket_details')
      .values({
        ticket_id: t.id,
        user_created_id: admin,
        status_detail_ticket_id: outcome,
        comment: 'Llamada',
        created_at: '2024-03-10T16:00:00Z',
      })
      .execute();
  }
});

it('the dashboard draws every status and priority in its own colour', async () => {
  const status = (await get(`tickets/${course}/status-chart`)).json()._data.chartData as Chart;
  expect(colourOf(status, 'Abierto')).toBe(STATUS_COLORS.open);
  expect(colourOf(status, 'Cerrado')).toBe(STATUS_COLORS.closed);
  const priority = (await get(`tickets/${course}/priority-chart`)).json()._data.chartData as Chart;
  expect(['Alta', 'Media', 'Baja'].map((l) => colourOf(priority, l))).toEqual([
    PRIORITY_LOOKS.high.color,
    PRIORITY_LOOKS.medium.color,
    PRIORITY_LOOKS.low.color,
  ]);
});

it('the report of a day draws status, priority and attempt results in the same colours', async () => {
  const charts = (await get(`reports/courses/${course}/type-ticket/${DAY}`)).json()._data as Record<
    string,
    { chartData: Chart }
  >;
  expect(colourOf(charts.status!.chartData, 'Cerrado')).toBe(TICKET_STATUS_LOOKS.closed.color);
  expect(colourOf(charts.priority!.chartData, 'Alta')).toBe(PRIORITY_LOOKS.high.color);
  const attempts = (await get(`reports/courses/${course}/table-operator/${DAY}`)).json()._data
    .chartData as Chart;
  expect(colourOf(attempts, 'Fallido')).toBe(ATTEMPT_RESULT_LOOKS.failure.color);
  expect(colourOf(attempts, 'Exitoso')).toBe(ATTEMPT_RESULT_LOOKS.success.color);
});

/** In drawing order: each text a PDF writes, and each fill colour it sets (as #rrggbb). */
function pdfDrawing(buf: Buffer): Array<{ text: string } | { fill: string }> {
  const latin = buf.toString('latin1');
  const decoder = new TextDecoder('windows-1252');
  const out: Array<{ text: string } | { fill: string }> = [];
  for (const m of latin.matchAll(/stream\r?\n/g)) {
    const start = m.index + m[0].length;
    const end = latin.indexOf('endstream', start);
    let content: string;
    try {
      content = zlib.inflateSync(buf.subarray(start, end)).toString('latin1');
    } catch {
      continue;
    }
    for (const op of content.matchAll(
      /\[((?:<[0-9a-fA-F]*>|[-\d.\s])*)\]\s*TJ|([\d.]+) ([\d.]+) ([\d.]+) (?:rg|scn)\b/g,
    )) {
      if (op[1] !== undefined)
        out.push({
          text: decoder.decode(
            Buffer.from([...op[1].matchAll(/<([0-9a-fA-F]*)>/g)].map((h) => h[1]).join(''), 'hex'),
          ),
        });
      else
        out.push({
          fill: `#${[op[2], op[3], op[4]]
            .map((v) =>
              Math.round(Number(v) * 255)
                .toString(16)
                .padStart(2, '0'),
            )
            .join('')}`,
        });
    }
  }
  return out;
}

it("the day's PDF fills each state's bar with that state's colour", async () => {
  const res = await get(`reports/courses/${course}/pdf/ticket/${DAY}`);
  const drawing = pdfDrawing(res.rawPayload);
  /** The colour of the bar drawn after each row label `label` (the first fill after it). */
  const barsOf = (label: string) =>
    drawing.flatMap((d, i) =>
      'text' in d && d.text === label
        ? [(drawing.slice(i + 1).find((x) => 'fill' in x) as { fill: string }).fill]
        : [],
    );
  expect(barsOf('Cerrado')).toEqual([TICKET_STATUS_LOOKS.closed.color.toLowerCase()]);
  expect(barsOf('Abierto')).toEqual([TICKET_STATUS_LOOKS.open.color.toLowerCase()]);
  expect(barsOf('Media')).toEqual([PRIORITY_LOOKS.medium.color.toLowerCase()]);
  expect(barsOf('Fallido')).toEqual([ATTEMPT_RESULT_LOOKS.failure.color.toLowerCase()]);
});

it("the PDF's count cards take their figure's colour, as the screens' cards do", async () => {
  const drawing = pdfDrawing((await get(`reports/courses/${course}/pdf/ticket/${DAY}`)).rawPayload);
  /** The card's accent: the last fill before its label other than the label's grey. */
  const accentOf = (label: string) => {
    const at = drawing.findIndex((d) => 'text' in d && d.text === label);
    expect(at, label).toBeGreaterThan(0);
    const fills = drawing.slice(0, at).flatMap((d) => ('fill' in d ? [d.fill] : []));
    return fills.filter((f) => f !== '#404040').at(-1);
  };
  expect(accentOf('Tickets nuevos')).toBe(FIGURE_COLOURS.created.toLowerCase());
  expect(accentOf('Tickets abiertos')).toBe(FIGURE_COLOURS.open.toLowerCase());
  expect(accentOf('Tickets cerrados')).toBe(FIGURE_COLOURS.closed.toLowerCase());
});

it("the per-student PDF marks each ticket's status and priority and each attempt's result in its colour", async () => {
  const drawing = pdfDrawing(
    (await get(`reports/courses/${course}/pdf/student-tickets`)).rawPayload,
  );
  /** The mark drawn before each cell `label`: the last fill before it other than the text's black. */
  const marksOf = (label: string) =>
    drawing.flatMap((d, i) =>
      'text' in d && d.text === label
        ? [
            drawing
              .slice(0, i)
              .flatMap((x) => ('fill' in x && x.fill !== '#000000' ? [x.fill] : []))
              .at(-1),
          ]
        : [],
    );
  expect(marksOf('Cerrado')).toEqual([TICKET_STATUS_LOOKS.closed.color.toLowerCase()]);
  expect(marksOf('Abierto')).toEqual(Array(2).fill(TICKET_STATUS_LOOKS.open.color.toLowerCase()));
  expect(marksOf('Alta')).toEqual([PRIORITY_LOOKS.high.color.toLowerCase()]);
  expect(marksOf('Baja')).toEqual([PRIORITY_LOOKS.low.color.toLowerCase()]);
  expect(marksOf('Exitoso')).toEqual([ATTEMPT_RESULT_LOOKS.success.color.toLowerCase()]);
  expect(marksOf('Fallido')).toEqual(
    Array(2).fill(ATTEMPT_RESULT_LOOKS.failure.color.toLowerCase()),
  );
});
