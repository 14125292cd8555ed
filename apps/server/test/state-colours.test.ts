import { STATUS_COLORS } from '@sigaf/contract';
import { expect, it } from 'vitest';
import { fileContext } from './helpers.js';
import { seedCourse } from './data.js';

/** One colour per ticket state everywhere: "Ticket según estado" draws Abierto and Cerrado as the open/closed bars do. */
const file = fileContext();

it('the status chart colours Abierto and Cerrado with the open and closed colours of every other chart', async () => {
  const { course } = await seedCourse(file.ctx.db, { categoryCode: 'COL', course: 'Colores', students: 1, firstRut: 15_500_000 });
  const get = async (path: string) => (await file.ctx.request({ method: 'GET', url: `/api/v2/tickets/${course}/${path}`, token: file.admin })).json();
  const chart = (await get('status-chart'))._data.chartData as { labels: string[]; datasets: Array<{ backgroundColor: string[] }> };
  const colourOf = (label: string) => chart.datasets[0]!.backgroundColor[chart.labels.indexOf(label)];
  expect(colourOf('Abierto')).toBe(STATUS_COLORS.open);
  expect(colourOf('Cerrado')).toBe(STATUS_COLORS.closed);
});
