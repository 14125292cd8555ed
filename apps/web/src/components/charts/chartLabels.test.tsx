import { LOGGED_TIME_LABELS, type ChartData } from '@sigaf/contract';
import i18next from 'i18next';
import { renderToStaticMarkup } from 'react-dom/server';
import { I18nextProvider, initReactI18next } from 'react-i18next';
import { beforeAll, describe, expect, it } from 'vitest';
import en from '../../i18n/dashboard.en.json';
import es from '../../i18n/dashboard.es.json';
import mainEn from '../../i18n/en.json';
import mainEs from '../../i18n/es.json';
import { ChartCard } from './ChartCard';
import { chartInLanguage } from './chartLabels';

const i18n = i18next.createInstance();
beforeAll(async () => {
  await i18n.use(initReactI18next).init({
    lng: 'en',
    resources: {
      es: { translation: { ...mainEs, ...es } },
      en: { translation: { ...mainEn, ...en } },
    },
  });
});

const logged: ChartData = {
  labels: [...LOGGED_TIME_LABELS],
  datasets: [{ data: [1, 2, 3, 4], backgroundColor: ['#000'] }],
};
const ages: ChartData = {
  labels: ['< 24h', '1 día', '3 días', 'Llamada', 'Alta', 'Finalizado'],
  datasets: [{ label: 'Abierto', data: [1, 1, 1, 1, 1, 1], backgroundColor: ['#000'] }],
};

describe('chart labels in the screen language', () => {
  it('English: the fixed labels and ticket ages are translated, data labels are not', () => {
    const en = i18n.getFixedT('en');
    expect(chartInLanguage(en, logged).labels).toEqual([
      'Never',
      'Less than a day',
      'Less than a week',
      'More than a week',
    ]);
    const shown = chartInLanguage(en, ages);
    // A seeded catalogue name and a Moodle state are translated; a name staff wrote is not.
    expect(shown.labels).toEqual(['< 24h', '1 day', '3 days', 'Llamada', 'High', 'Finished']);
    expect(shown.datasets[0]!.label).toBe('Open');
    expect(shown.datasets[0]!.data).toEqual([1, 1, 1, 1, 1, 1]);
  });

  it('Spanish: as the server sent them', () => {
    const es = i18n.getFixedT('es');
    expect(chartInLanguage(es, logged)).toEqual(logged);
    expect(chartInLanguage(es, ages)).toEqual(ages);
  });

  it("the card's figures table reads in English", () => {
    const html = renderToStaticMarkup(
      <I18nextProvider i18n={i18n}>
        <ChartCard title="Access" kind="pie" data={logged} loading={false} />
      </I18nextProvider>,
    );
    expect(html).toContain('>Less than a week</th>');
    expect(html).not.toContain('Menos de una semana');
  });
});
