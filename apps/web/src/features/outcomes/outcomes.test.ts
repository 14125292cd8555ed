import {
  idleGroupOf,
  sortGroups,
  type AttemptOutcome,
  type SimilarSuggestion,
} from '@sigaf/contract';
import i18next from 'i18next';
import { beforeAll, describe, expect, it } from 'vitest';
import en from '../../i18n/outcomes.en.json';
import es from '../../i18n/outcomes.es.json';
import type { OutcomeGroup } from '@sigaf/contract';
import { groupName, headline, outcomeLine, similarLine, studentSuggestion } from './format';

const base: AttemptOutcome = {
  attemptId: 1,
  ticketId: 1,
  accessDays: null,
  settled3: true,
  settled7: true,
  settled14: true,
  progressBefore: null,
  progress7: null,
  progress14: null,
};
const i18n = i18next.createInstance();

function keys(value: unknown, prefix = ''): string[] {
  if (typeof value !== 'object' || value === null) return [prefix];
  return Object.entries(value).flatMap(([k, v]) => keys(v, prefix ? `${prefix}.${k}` : k));
}

beforeAll(async () => {
  await i18n.init({
    lng: 'es',
    resources: { es: { translation: es }, en: { translation: en } },
    interpolation: { escapeValue: false },
  });
});

describe('the line under a contact attempt', () => {
  it('back 2 days later, progress 35 % → 48 %', () => {
    expect(
      outcomeLine(i18n.t, {
        ...base,
        accessDays: 2,
        progressBefore: 35,
        progress7: 48,
        progress14: 48,
      }),
    ).toBe('Ingresó a Moodle 2 días después; progreso 35 % → 48 %');
  });

  it('one day, the same day, not within 7 days, not yet', () => {
    expect(outcomeLine(i18n.t, { ...base, accessDays: 1 })).toBe('Ingresó a Moodle 1 día después');
    expect(
      outcomeLine(i18n.t, { ...base, accessDays: 0, progressBefore: 10, progress14: 10 }),
    ).toBe('Ingresó a Moodle el mismo día; progreso 10 % → 10 %');
    expect(outcomeLine(i18n.t, { ...base, progressBefore: 20, progress14: 30 })).toBe(
      'Sin ingreso a Moodle en 7 días; progreso 20 % → 30 %',
    );
    expect(
      outcomeLine(i18n.t, {
        ...base,
        settled7: false,
        settled14: false,
        progressBefore: 20,
        progress14: 20,
      }),
    ).toBe('Aún sin ingreso a Moodle; progreso 20 % → 20 %');
  });

  it('nothing known: no line', () => {
    expect(outcomeLine(i18n.t, base)).toBeNull();
  });

  it('in English', () => {
    expect(
      outcomeLine(i18n.getFixedT('en'), {
        ...base,
        accessDays: 3,
        progressBefore: 35,
        progress14: 48,
      }),
    ).toBe('Back in Moodle 3 days later; progress 35 % → 48 %');
  });

  it('groups without a catalogue name: hour, weekday, idle group', () => {
    expect(groupName(i18n.t, 'hour', '09', null)).toBe('09:00');
    expect(groupName(i18n.t, 'weekday', '3', null)).toBe('miércoles');
    expect(groupName(i18n.t, 'idle', '7-13', null)).toBe('7–13 días');
    expect(groupName(i18n.t, 'type', '2', 'Contacto telefónico')).toBe('Contacto telefónico');
  });
});

describe("Mi agenda's suggestion for similar students", () => {
  const phone = { key: 'call', label: 'Llamada', n: 80, accessed: 34, rate: 34 / 80 };
  const ten = { key: '10', label: '10:00', n: 45, accessed: 20, rate: 20 / 45 };
  const similar: SimilarSuggestion = { idle: '7-13', channel: phone, hour: ten };

  it('says who, what and why: 34 of 80 students back after a call, 20 of 45 at 10:00', () => {
    expect(similarLine(i18n.t, 'Curso X', similar)).toBe(
      'Para estudiantes de Curso X con 7–13 días sin ingresar, tras un contacto por «Llamada» ingresaron a Moodle en 7 días 34 de 80; a las 10:00, 20 de 45',
    );
    expect(similarLine(i18n.getFixedT('en'), 'Course X', similar)).toBe(
      'For students of Course X with 7–13 days without access, after a contact by “Call” 34 of 80 accessed Moodle within 7 days; at 10:00, 20 of 45',
    );
  });

  it("per student: their own group's line, else why there is none (never the course's)", () => {
    const course = { courseId: 7, scope: 'course', minContacts: 30 } as const;
    const figures = { ...course, groups: [similar], course: { channel: phone, hour: null } };
    expect(studentSuggestion(i18n.t, { course: 'Curso X', daysWithoutAccess: 9 }, figures)).toBe(
      similarLine(i18n.t, 'Curso X', similar),
    );
    expect(studentSuggestion(i18n.t, { course: 'Curso X', daysWithoutAccess: 20 }, figures)).toBe(
      'Sin sugerencia para estudiantes de este curso con 14–29 días sin ingresar: su grupo no llega a 30 estudiantes contactados en los últimos 90 días.',
    );
    expect(
      studentSuggestion(i18n.t, { course: 'Curso X', daysWithoutAccess: null }, undefined),
    ).toBeNull();
  });

  it('a channel or an hour alone; students who never accessed', () => {
    expect(similarLine(i18n.t, 'Curso X', { ...similar, hour: null })).toBe(
      'Para estudiantes de Curso X con 7–13 días sin ingresar, tras un contacto por «Llamada» ingresaron a Moodle en 7 días 34 de 80',
    );
    expect(similarLine(i18n.t, 'Curso X', { idle: 'never', channel: null, hour: ten })).toBe(
      'Para estudiantes de Curso X que nunca ingresaron a Moodle, tras un contacto a las 10:00 ingresaron a Moodle en 7 días 20 de 45',
    );
  });

  it("the course's contacts as a whole, where a group has too few", () => {
    expect(similarLine(i18n.t, 'Curso X', { idle: 'all', channel: phone, hour: null })).toBe(
      'Para estudiantes de Curso X (todos los estudiantes contactados del curso), tras un contacto por «Llamada» ingresaron a Moodle en 7 días 34 de 80',
    );
    expect(
      similarLine(i18n.getFixedT('en'), 'Course X', { idle: 'all', channel: null, hour: ten }),
    ).toBe(
      "For students of Course X (all the course's contacted students), after a contact at 10:00 20 of 45 accessed Moodle within 7 days",
    );
  });

  it("a student's days without access give the report's idle group", () => {
    expect([null, 0, 2, 3, 6, 7, 13, 14, 29, 30, 400].map(idleGroupOf)).toEqual([
      'never',
      '0-2',
      '0-2',
      '3-6',
      '3-6',
      '7-13',
      '7-13',
      '14-29',
      '14-29',
      '30+',
      '30+',
    ]);
  });
});

describe('the Efectividad rows', () => {
  const row = (key: string, accessed: number, n: number, base: number | null): OutcomeGroup => ({
    key,
    label: null,
    reengaged: { rate: n ? accessed / n : null, n, low: null, high: null },
    gain: null,
    gainN: 0,
    baseline: { rate: base, n: 10, low: null, high: null },
    baselineGain: null,
    small: n < 20,
    contacts: n,
    unknown: 0,
    inferred: 0,
    difference: null,
  });
  const percent = (v: number | null) => (v === null ? '—' : `${Math.round(v)} %`);

  it('days without access in their natural order, not as text (0–2, 14–29, 3–6…)', () => {
    const groups = ['14-29', '0-2', 'unknown', '30+', '3-6', 'never', '7-13'].map((k) =>
      row(k, 1, 2, 0.5),
    );
    const name = (g: OutcomeGroup) => groupName(i18n.t, 'idle', g.key, g.label);
    expect(sortGroups('idle', groups, name).map((g) => g.key)).toEqual([
      'never',
      '0-2',
      '3-6',
      '7-13',
      '14-29',
      '30+',
      'unknown',
    ]);
    expect(
      sortGroups(
        'hour',
        ['14', '09', '10'].map((k) => row(k, 1, 2, 0.5)),
        name,
      ).map((g) => g.key),
    ).toEqual(['09', '10', '14']);
  });

  it('the headline says students, within 7 days after, and the comparable baseline; none when missing', () => {
    expect(headline(i18n.t, row('all', 21, 31, 0.341), percent)).toBe(
      '21 de 31 estudiantes ingresaron a Moodle dentro de 7 días después del contacto (línea base comparable: 34 %).',
    );
    expect(headline(i18n.t, row('all', 1, 1, null), percent)).toBe(
      '1 de 1 estudiante ingresó a Moodle dentro de 7 días después del contacto (sin línea base comparable).',
    );
  });

  it('the medium by its name, in each language', () => {
    expect(groupName(i18n.t, 'medium', 'in_person', null)).toBe('Presencial');
    expect(groupName(i18n.getFixedT('en'), 'medium', 'email', null)).toBe('E-mail');
  });
});

describe('outcome translations', () => {
  it('the same keys in Spanish and English, owning only their area, none empty', () => {
    expect(keys(en).sort()).toEqual(keys(es).sort());
    expect(Object.keys(es)).toEqual(['outcomes']);
    const leaves = (o: unknown): unknown[] =>
      typeof o === 'object' && o !== null ? Object.values(o).flatMap(leaves) : [o];
    expect(
      [...leaves(es), ...leaves(en)].every((v) => typeof v === 'string' && v.trim() !== ''),
    ).toBe(true);
  });
});
