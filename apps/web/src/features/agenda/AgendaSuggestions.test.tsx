import type { AgendaStudent, OutcomeSimilarSuggestions } from '@sigaf/contract';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import i18next from 'i18next';
import { renderToStaticMarkup } from 'react-dom/server';
import { I18nextProvider, initReactI18next } from 'react-i18next';
import { beforeAll, describe, expect, it } from 'vitest';
import en from '../../i18n/outcomes.en.json';
import es from '../../i18n/outcomes.es.json';
import { AgendaSuggestions } from './AgendaSuggestions';

const i18n = i18next.createInstance();
beforeAll(async () => {
  await i18n.use(initReactI18next).init({
    lng: 'es',
    resources: { es: { translation: es }, en: { translation: en } },
    interpolation: { escapeValue: false },
  });
});

const student = {
  enrolmentId: 1,
  courseId: 7,
  course: 'Curso X',
  daysWithoutAccess: 9,
} as AgendaStudent;
const group = { key: 'whatsapp', label: 'WhatsApp', n: 80, accessed: 34, rate: 34 / 80 };
const similar: OutcomeSimilarSuggestions = {
  courseId: 7,
  scope: 'course',
  minContacts: 30,
  groups: [{ idle: '7-13', channel: group, hour: null }],
  course: null,
};

/** Mi agenda's suggestion box, with the students at risk and the course's suggestions already read. */
function render(lng: 'es' | 'en') {
  const client = new QueryClient();
  client.setQueryData(['agenda', 'students', { page: 1, perPage: 100 }], {
    rows: [student],
    total: 1,
    unsyncedCourses: [],
  });
  client.setQueryData(['outcomes', 'suggestion', 7, 'similar'], similar);
  void i18n.changeLanguage(lng);
  return renderToStaticMarkup(
    <QueryClientProvider client={client}>
      <I18nextProvider i18n={i18n}>
        <AgendaSuggestions />
      </I18nextProvider>
    </QueryClientProvider>,
  );
}

describe("Mi agenda's suggestion on screen", () => {
  it('says its figures are the whole course’s, the whole team’s contacts, in groups of at least 30 students', () => {
    const html = render('es');
    expect(html).toContain(
      'Para estudiantes de Curso X con 7–13 días sin ingresar, tras un contacto por «WhatsApp» ingresaron a Moodle en 7 días 34 de 80',
    );
    expect(html).toContain(
      'Cifras de todo el curso: los contactos de todo el equipo, no solo los suyos',
    );
    expect(html).toContain('en grupos de al menos 30 estudiantes, cada uno una vez por semana');
  });

  it('in English too', () => {
    const html = render('en');
    expect(html).toContain('Course-wide figures: the whole team&#x27;s contacts, not only yours');
    expect(html).toContain('in groups of at least 30 students, each counted once a week');
  });
});
