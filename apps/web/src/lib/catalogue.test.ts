import { CATALOGUE_SEED } from '@sigaf/contract';
import i18next from 'i18next';
import { describe, expect, it } from 'vitest';
import en from '../i18n/en.json';
import es from '../i18n/es.json';
import { catalogueText } from './catalogue';

const inLanguage = async (lng: 'es' | 'en') => {
  const i18n = i18next.createInstance();
  await i18n.init({ lng, resources: { [lng]: { translation: lng === 'es' ? es : en } } });
  return i18n.t;
};

describe('seeded catalogue values in the screen’s language', () => {
  it('Spanish names them as the database holds them, every keyed value', () => {
    const keyed = Object.fromEntries(
      Object.entries(CATALOGUE_SEED).map(([table, rows]) => [
        table,
        Object.fromEntries(rows.flatMap((r) => (r.key ? [[r.key, r.description]] : []))),
      ]),
    );
    expect(es.catalogue).toEqual(
      Object.fromEntries(Object.entries(keyed).filter(([, v]) => Object.keys(v).length)),
    );
  });

  it('English translates a value staff kept, and keeps the names staff wrote', async () => {
    const t = await inLanguage('en');
    expect(
      ['Abierto', 'Alta', 'Exitoso', 'Contacto telefónico'].map((v) => catalogueText(t, v)),
    ).toEqual(['Open', 'High', 'Successful', 'Phone call']);
    expect(catalogueText(t, 'Abierto por error')).toBe('Abierto por error');
    expect(catalogueText(t, null)).toBeNull();
    const es = await inLanguage('es');
    expect(catalogueText(es, 'Abierto')).toBe('Abierto');
  });
});
