import { RESOURCES, SCREEN_ROUTES } from '@sigaf/contract';
import { describe, expect, it } from 'vitest';
import { en, es } from '../i18n/resources';
import { buildMenu } from './navigation';

function keys(o: object, prefix = ''): string[] {
  return Object.entries(o).flatMap(([k, v]) =>
    v && typeof v === 'object' ? keys(v, `${prefix}${k}.`) : [`${prefix}${k}`],
  );
}

describe('menu by role', () => {
  it('an operator sees Mi agenda, Estadística, Efectividad, Seguimiento and Ticket only; a tutor Mi agenda and Seguimiento', () => {
    const op = buildMenu('operator');
    expect(op.flat.map((s) => s.key)).toEqual([
      'agenda',
      'dashboard',
      'effectiveness',
      'followUp',
      'ticket',
    ]);
    expect(op.groups).toEqual([]);
    const tutor = buildMenu('tutor');
    expect(tutor.flat.map((s) => s.key)).toEqual(['agenda', 'followUp']);
  });

  it('administrators and developers see every group, in the original drawer order', () => {
    for (const role of ['admin', 'developer'] as const) {
      const m = buildMenu(role);
      expect(m.groups.map((g) => g.group)).toEqual(['reportes', 'mantenedor', 'configuracion']);
      expect(m.groups[1]!.items.map((s) => s.key).slice(0, 3)).toEqual([
        'blockingTicket',
        'manageTicket',
        'classroom',
      ]);
    }
    expect(buildMenu(null).flat).toEqual([]);
  });
});

describe('translations', () => {
  it('es and en have the same keys', () => {
    expect(keys(en).sort()).toEqual(keys(es).sort());
  });

  it('every screen, group, resource and field has its Spanish text', () => {
    const flat = new Set(keys(es));
    for (const s of SCREEN_ROUTES) expect(flat.has(`nav.${s.key}`), s.key).toBe(true);
    for (const r of RESOURCES) {
      for (const k of ['title', 'create', 'edit'])
        expect(flat.has(`resources.${r.key}.${k}`), `${r.key}.${k}`).toBe(true);
      for (const f of r.fields) expect(flat.has(`fields.${f.label}`), f.label).toBe(true);
    }
  });
});
