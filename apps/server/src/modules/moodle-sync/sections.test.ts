import { describe, expect, it } from 'vitest';
import { foldName, mappingLookup, proposeSection, sectionKeyOfName } from './sections.js';

const SECTIONS = [
  { id: 1, key: 'resign', description: 'Renuncia' },
  { id: 2, key: 'survey', description: 'Encuesta' },
  { id: 3, key: 'pre_test_a', description: 'Pre Test A' },
  { id: 4, key: 'pre_test_b', description: 'Pre Test B' },
  { id: 5, key: 'post_test_a', description: 'Post Test A' },
  { id: 6, key: 'post_test_b', description: 'Post Test B' },
  { id: 7, key: 'formative', description: 'Formativa' },
  { id: 8, key: null, description: 'Módulo Práctico' },
];
const key = (moodleSection: string | null, activity: string) =>
  proposeSection(moodleSection, activity, SECTIONS)?.key ?? null;

describe('section proposals for new Moodle activities', () => {
  it('folds accents, case and punctuation', () => {
    expect(foldName('  Módulo   PRÁCTICO – 1 ')).toBe('modulo practico 1');
  });

  it('reads the Moodle section name first: Renuncia, Retiro, Encuesta, tests A and B', () => {
    expect(key('Renuncia', 'Formulario')).toBe('resign');
    expect(key('RETIRO del curso', 'Formulario')).toBe('resign');
    expect(key('Encuesta final', 'Cuestionario')).toBe('survey');
    expect(key('Pre Test A', 'Cuestionario')).toBe('pre_test_a');
    expect(key('Pre-test B', 'Cuestionario')).toBe('pre_test_b');
    expect(key('Pretest A', 'Cuestionario')).toBe('pre_test_a');
    expect(key('Test A', 'Cuestionario')).toBe('pre_test_a');
    expect(key('Post Test A', 'Cuestionario')).toBe('post_test_a');
    expect(key('Postest B', 'Cuestionario')).toBe('post_test_b');
    expect(key('Evaluación final B', 'Cuestionario')).toBe('post_test_b');
  });

  it('then the activity name, when the section says nothing', () => {
    expect(key('Unidad 1', 'Pre Test A')).toBe('pre_test_a');
    expect(key('Unidad 3', 'Test B')).toBe('pre_test_b');
    expect(key('Cierre', 'Encuesta de satisfacción')).toBe('survey');
    expect(key(null, 'Formulario de renuncia')).toBe('resign');
  });

  it('a section of the same name wins, even one without a key; nothing proposed otherwise', () => {
    expect(proposeSection('modulo practico', 'Tarea 1', SECTIONS)).toEqual(SECTIONS[7]);
    expect(key('Unidad 1', 'Actividad 1.1 (assign)')).toBeNull();
    expect(key('Formativa', 'Foro')).toBeNull();
    expect(key('General', 'Avisos')).toBeNull();
    // "test" inside a word, or a test without form, is no test section.
    expect(sectionKeyOfName('Contestar el foro A')).toBeNull();
    expect(sectionKeyOfName('Test de conocimientos')).toBeNull();
  });

  it('a proposal points only at a section that exists', () => {
    expect(
      proposeSection(
        'Renuncia',
        'Formulario',
        SECTIONS.filter((s) => s.key !== 'resign'),
      ),
    ).toBeNull();
  });

  it("a course's mapping is looked up without accents or case", () => {
    const lookup = mappingLookup([{ moodle_section: 'Módulo de Cierre', section_id: 2 }]);
    expect([
      lookup('MODULO DE CIERRE'),
      lookup('modulo de cierre '),
      lookup('Otro'),
      lookup(null),
    ]).toEqual([2, 2, null, null]);
  });
});
