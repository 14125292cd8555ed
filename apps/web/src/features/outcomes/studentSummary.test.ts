import i18next from 'i18next';
import { beforeAll, describe, expect, it } from 'vitest';
import agendaEs from '../../i18n/agenda.es.json';
import moodleEs from '../../i18n/moodle.es.json';
import es from '../../i18n/outcomes.es.json';
import { studentSummary } from './OutcomeLines';

const i18n = i18next.createInstance();
beforeAll(async () => {
  await i18n.init({
    lng: 'es',
    resources: { es: { translation: { ...es, ...moodleEs, ...agendaEs } } },
  });
});

const words = (s: string) => s.trim().split(/\s+/).length;

describe('plain words for staff', () => {
  it('a student with only recent contacts: no "0 de 0", only what cannot be measured yet', () => {
    const text = studentSummary(i18n.t, { attempts: 2, settled7: 0, accessed7: 0 });
    expect(text).toBe('2 contactos son de hace menos de 7 días: aún no se pueden medir.');
    expect(text).not.toMatch(/\b0 de 0\b|semana cumplida/);
  });

  it('measured and recent contacts, in one short sentence each', () => {
    expect(studentSummary(i18n.t, { attempts: 4, settled7: 3, accessed7: 2 })).toBe(
      'Volvió a Moodle dentro de 7 días tras 2 de 3 contactos. ' +
        '1 contacto es de hace menos de 7 días: aún no se puede medir.',
    );
    expect(studentSummary(i18n.t, { attempts: 0, settled7: 0, accessed7: 0 })).toBe(
      es.outcomes.student.none,
    );
  });

  it('one measured contact reads as a sentence, not "1 de 1"', () => {
    expect(studentSummary(i18n.t, { attempts: 1, settled7: 1, accessed7: 1 })).toBe(
      'Volvió a Moodle dentro de los 7 días siguientes a su único contacto medible.',
    );
    expect(studentSummary(i18n.t, { attempts: 1, settled7: 1, accessed7: 0 })).toBe(
      'No volvió a Moodle en los 7 días siguientes a su único contacto medible.',
    );
  });

  it('the sync report and the agenda hint avoid jargon and length', () => {
    const calls = i18n.t('moodle.report.moodleCalls', { count: 49 });
    expect(calls).toBe('SIGAF consultó a Moodle 49 veces en esta sincronización.');
    expect(calls).not.toMatch(/Llamadas/);
    expect(words(es.outcomes.suggestion.why)).toBeLessThanOrEqual(30);
  });
});
