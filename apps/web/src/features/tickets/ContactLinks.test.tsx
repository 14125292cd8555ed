import i18next from 'i18next';
import { renderToStaticMarkup } from 'react-dom/server';
import { I18nextProvider, initReactI18next } from 'react-i18next';
import { beforeAll, describe, expect, it } from 'vitest';
import { PhoneContact, type ContactTarget } from './ContactActions';
import { TelLink } from '../../components/ContactLinks';

const i18n = i18next.createInstance();
beforeAll(async () => {
  await i18n.use(initReactI18next).init({ lng: 'es', resources: { es: { translation: {} } } });
});

const hrefs = (html: string) => [...html.matchAll(/href="([^"]+)"/g)].map((m) => m[1]);

describe('phone links on screen', () => {
  it('one number: one link, shown as typed', () => {
    const html = renderToStaticMarkup(<TelLink number="+56 9 1234 5678" />);
    expect(hrefs(html)).toEqual(['tel:+56912345678']);
    expect(html).toContain('+56 9 1234 5678');
  });

  it('two numbers in one field: a link each, never one joined', () => {
    const html = renderToStaticMarkup(<TelLink number="9 1234 5678 - 22 345 6789" />);
    expect(hrefs(html)).toEqual(['tel:+56912345678', 'tel:+56223456789']);
    expect(html).not.toContain('912345678223456789');
  });

  it('digits that are no number: text, no link', () => {
    expect(hrefs(renderToStaticMarkup(<TelLink number="912345678223456789" />))).toEqual([]);
  });

  it('the student detail: a call link for each number and WhatsApp for each mobile', () => {
    const target: ContactTarget = {
      enrolmentId: 1,
      course: { id: 1, description: 'Curso' },
      name: 'Ana',
      lastName: 'Díaz',
      rut: '1-9',
      classroom: null,
    };
    const html = renderToStaticMarkup(
      <I18nextProvider i18n={i18n}>
        <PhoneContact number="912345678 / 987654321 y 2 2345 6789" target={target} />
      </I18nextProvider>,
    );
    expect(hrefs(html)).toEqual(['tel:+56912345678', 'tel:+56987654321', 'tel:+56223456789']);
    expect(html.match(/<button/g)).toHaveLength(2);
  });
});
