import i18next from 'i18next';
import { beforeAll, describe, expect, it } from 'vitest';
import en from '../i18n/en.json';
import es from '../i18n/es.json';
import { roleLabel } from './roles';

const i18n = i18next.createInstance();
beforeAll(async () => {
  await i18n.init({ lng: 'es', resources: { es: { translation: es }, en: { translation: en } } });
});

describe('role names on screen', () => {
  it('the stored "Developer" reads in Spanish; the others as in the original', () => {
    const es = i18n.getFixedT('es');
    expect(roleLabel(es, { key: 'developer', description: 'Developer' })).toBe(
      'Desarrollador (equipo técnico)',
    );
    expect(roleLabel(es, { key: 'operator', description: 'Operador' })).toBe('Operador');
    expect(roleLabel(i18n.getFixedT('en'), { key: 'admin', description: 'Administrador' })).toBe(
      'Administrator',
    );
  });

  it('a role an administrator renamed keeps its new name', () => {
    expect(roleLabel(i18n.getFixedT('es'), { key: 'operator', description: 'Ejecutivo' })).toBe(
      'Ejecutivo',
    );
    expect(roleLabel(i18n.getFixedT('es'), null)).toBe('');
  });
});
