import i18next from 'i18next';
import { beforeAll, describe, expect, it } from 'vitest';
import en from '../../i18n/moodle.en.json';
import es from '../../i18n/moodle.es.json';
import { activityTypeLabel } from './activityType';

const i18n = i18next.createInstance();
beforeAll(async () => {
  await i18n.init({ lng: 'es', resources: { es: { translation: es }, en: { translation: en } } });
});

describe("an activity's Moodle type", () => {
  it('reads in the screen language, not as Moodle keys', () => {
    const es = i18n.getFixedT('es');
    expect(['forum', 'url', 'assign', 'quiz'].map((k) => activityTypeLabel(es, k))).toEqual([
      'Foro',
      'URL',
      'Tarea',
      'Cuestionario',
    ]);
    expect(activityTypeLabel(i18n.getFixedT('en'), 'assign')).toBe('Assignment');
  });

  it('an unknown type shows its key', () => {
    expect(activityTypeLabel(i18n.getFixedT('es'), 'customcert')).toBe('customcert');
    expect(activityTypeLabel(i18n.getFixedT('es'), 'a.b')).toBe('a.b');
  });
});
