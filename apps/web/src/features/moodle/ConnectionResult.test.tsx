import { MOODLE_CAPABILITIES, MOODLE_MSG } from '@sigaf/contract';
import i18next from 'i18next';
import { renderToStaticMarkup } from 'react-dom/server';
import { I18nextProvider, initReactI18next } from 'react-i18next';
import { beforeAll, describe, expect, it } from 'vitest';
import en from '../../i18n/moodle.en.json';
import es from '../../i18n/moodle.es.json';
import type { ConnectionReport } from './api';
import { ConnectionResult } from './MoodleSettingsDialog';
import { capabilityChecks, connectionReport } from './test-report';

const i18n = i18next.createInstance();
beforeAll(async () => {
  await i18n.use(initReactI18next).init({
    lng: 'es',
    resources: { es: { translation: es }, en: { translation: en } },
    interpolation: { escapeValue: false },
  });
});

const checks = capabilityChecks;
const report = connectionReport;

const render = (r: ConnectionReport) =>
  renderToStaticMarkup(
    <I18nextProvider i18n={i18n}>
      <ConnectionResult report={r} />
    </I18nextProvider>,
  );
/** The visible text of the markup: line-break opportunities joined, other tags dropped. */
const text = (html: string) =>
  html
    .replace(/<wbr\s*\/?>/g, '')
    .replace(/<[^>]+>/g, ' ')
    .replace(/\s+/g, ' ');

describe('the result of "Probar conexión"', () => {
  it('lists every capability with its Moodle name, what SIGAF uses it for and its state, and names the missing ones', () => {
    const html = render(
      report({
        capabilities: checks({
          'moodle/grade:viewall': {
            state: 'missing',
            reason: 'denied',
            detail: 'nopermissiontoviewgrades',
          },
          'moodle/user:create': { state: 'unchecked', reason: 'pushNotChecked' },
        }),
      }),
    );
    const shown = text(html);
    for (const c of MOODLE_CAPABILITIES) expect(shown).toContain(c.capability);
    expect(html.match(/data-state="/g)).toHaveLength(MOODLE_CAPABILITIES.length);
    expect(shown).toContain('Capacidades del usuario del token');
    expect(shown).toContain('Comprobadas por su efecto en el curso de Moodle id 4');
    expect(shown).toContain(
      'Falta la capacidad moodle/grade:viewall: Leer las calificaciones de todos los estudiantes.',
    );
    expect(shown).toContain('Falta: Moodle negó la consulta (nopermissiontoviewgrades)');
    expect(shown).toContain('Sin comprobar: comprobarla exigiría crear o cambiar datos en Moodle');
    expect(html.match(/data-testid="capability-warning"/g)).toHaveLength(1);
    expect(html).toContain('MuiAlert-colorWarning');
  });

  it('with no linked course: every capability listed unchecked and why; a warning that hidden activities cannot be told from deleted ones; the warnings of before stay', () => {
    const html = render(
      report({
        checkedMoodleCourseId: null,
        capabilities: checks(
          Object.fromEntries(
            MOODLE_CAPABILITIES.map((c) => [
              c.capability,
              { state: 'unchecked', reason: 'noLinkedCourse' },
            ]),
          ),
        ),
      }),
    );
    expect(text(html)).toContain('No hay un curso vinculado a Moodle en esta plataforma');
    expect(html.match(/data-state="unchecked"/g)).toHaveLength(MOODLE_CAPABILITIES.length);
    expect(html).not.toContain('capability-warning');
    // Unconfirmed, moodle/course:viewhiddenactivities makes the answer a warning that says what it means.
    expect(html).toContain('data-testid="hidden-activities-warning"');
    expect(text(html)).toContain(
      'No se pudo confirmar que el usuario del token vea las actividades ocultas',
    );
    expect(text(html)).toContain('«No visible para el token: eliminada u oculta»');
    expect(html).toContain('MuiAlert-colorWarning');
    const confirmed = render(report());
    expect(confirmed).not.toContain('hidden-activities-warning');
    expect(confirmed).toContain('MuiAlert-colorSuccess');
    const warned = render(report({ identityWarning: MOODLE_MSG.identityFieldsMissing }));
    expect(warned).toContain('data-testid="identity-warning"');
    expect(warned).toContain('MuiAlert-colorWarning');
  });
});
