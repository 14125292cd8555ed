import i18next from 'i18next';
import { renderToStaticMarkup } from 'react-dom/server';
import { I18nextProvider, initReactI18next } from 'react-i18next';
import { beforeAll, describe, expect, it } from 'vitest';
import es from '../../i18n/tickets.es.json';
import type { EnrolmentInfo } from './api';
import { StudentCard } from './StudentCard';

const i18n = i18next.createInstance();
beforeAll(async () => {
  await i18n.use(initReactI18next).init({ lng: 'es', resources: { es: { translation: es } } });
});

describe("the ticket's student card", () => {
  it('writes the name as stored, in normal case like the other screens', () => {
    const enrolment = {
      id: 1,
      classroom: null,
      lastAccess: null,
      lastAccessText: null,
      registeredUser: {
        id: 1,
        name: 'María José',
        lastName: 'Núñez',
        motherLastName: 'Pérez',
        rut: '12.345.678-5',
        email: null,
        mobile: null,
        phone: null,
      },
    } as unknown as EnrolmentInfo;
    const html = renderToStaticMarkup(
      <I18nextProvider i18n={i18n}>
        <StudentCard enrolment={enrolment} />
      </I18nextProvider>,
    );
    expect(html).toContain('María José Núñez Pérez');
    expect(html).not.toMatch(/text-transform:\s*uppercase/);
  });
});
