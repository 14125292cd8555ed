import i18next from 'i18next';
import { beforeAll, describe, expect, it } from 'vitest';
import en from '../../i18n/students.en.json';
import es from '../../i18n/students.es.json';
import { importConfirmation } from './importText';

const i18n = i18next.createInstance();
beforeAll(async () => {
  await i18n.init({
    lng: 'es',
    resources: { es: { translation: es }, en: { translation: en } },
    interpolation: { escapeValue: false },
  });
});

describe('the import confirmation', () => {
  const say = (valid: number, rejected: number, lng = 'es') =>
    importConfirmation(i18n.getFixedT(lng), { valid, rejected, course: 'Grúa' });

  it('says nothing of rejected rows when there are none', () => {
    expect(say(4, 0)).toBe('Se guardarán 4 filas válidas en el curso Grúa.');
    expect(say(4, 0, 'en')).toBe('4 valid rows will be saved in the course Grúa.');
  });

  it('counts rejected rows, in the singular for one', () => {
    expect(say(1, 1)).toBe(
      'Se guardará 1 fila válida en el curso Grúa. La fila rechazada no se guardará.',
    );
    expect(say(4, 3)).toBe(
      'Se guardarán 4 filas válidas en el curso Grúa. Las 3 filas rechazadas no se guardarán.',
    );
  });
});
