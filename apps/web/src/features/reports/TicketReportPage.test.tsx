import type { TicketRangeReport } from '@sigaf/contract';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import i18next from 'i18next';
import { renderToStaticMarkup } from 'react-dom/server';
import { I18nextProvider, initReactI18next } from 'react-i18next';
import { beforeAll, describe, expect, it } from 'vitest';
import en from '../../i18n/dashboard.en.json';
import es from '../../i18n/dashboard.es.json';
import { RangeReport } from './TicketReportPage';

const i18n = i18next.createInstance();
beforeAll(async () => {
  await i18n.use(initReactI18next).init({
    lng: 'es',
    resources: { es: { translation: es }, en: { translation: en } },
    interpolation: { escapeValue: false },
  });
});

const empty = { labels: [], datasets: [] };
const report = (from: string, to: string): TicketRangeReport => ({
  from,
  to,
  card: { created: 12, total: 40, open: 25, closed: 15 },
  charts: {
    status: { chartData: empty },
    source: { chartData: empty },
    type: { chartData: empty },
    priority: { chartData: empty },
    motive: { chartData: empty },
  },
  operators: {
    table: [{ operatorId: 3, operator: 'Ana Operadora', tickets: 9, closed: 4, attempts: 31 }],
    chartData: empty,
  },
});

function render(from: string, to: string) {
  const client = new QueryClient();
  client.setQueryData(['reports', 'range', 7, from, to], report(from, to));
  return renderToStaticMarkup(
    <QueryClientProvider client={client}>
      <I18nextProvider i18n={i18n}>
        <RangeReport courseId={7} from={from} to={to} />
      </I18nextProvider>
    </QueryClientProvider>,
  );
}

describe('Reportes › Ticket over a range', () => {
  it('shows the whole range chosen, with the range’s figures, and no chip per day', () => {
    const html = render('2026-11-01', '2026-12-07');
    expect(html).toContain('Del 01-11-2026 al 07-12-2026');
    expect(html).toContain('Producción del período');
    expect(html).toContain('Actualización del período');
    expect(html).toContain('Ana Operadora');
    expect(html).toContain('>31<');
    expect(html).not.toContain('role="option"');
  });

  it('one day when both ends are the same', () => {
    const html = render('2026-12-07', '2026-12-07');
    expect(html).toContain('Día 07-12-2026');
    expect(html).toContain('Producción del día');
  });
});
