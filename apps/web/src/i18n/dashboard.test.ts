import { TICKET_REPORT_SCOPE } from '@sigaf/contract';
import { describe, expect, it } from 'vitest';
import en from './dashboard.en.json';
import es from './dashboard.es.json';

/** Every key path of a nested translation object. */
function keys(value: unknown, prefix = ''): string[] {
  if (typeof value !== 'object' || value === null) return [prefix];
  return Object.entries(value).flatMap(([k, v]) => keys(v, prefix ? `${prefix}.${k}` : k));
}

describe('dashboard translations', () => {
  it('has the same keys in Spanish and English', () => {
    expect(keys(en).sort()).toEqual(keys(es).sort());
  });

  it('owns only the dashboard, reports and charts areas', () => {
    expect(Object.keys(es).every((k) => ['dashboard', 'reports', 'charts'].includes(k))).toBe(true);
  });

  it('says what the ticket report counts as its PDF does', () => {
    expect(es.reports.ticket.scope).toEqual(TICKET_REPORT_SCOPE);
  });

  it('has no empty text', () => {
    const leaves = (o: unknown): unknown[] =>
      typeof o === 'object' && o !== null ? Object.values(o).flatMap(leaves) : [o];
    expect(
      [...leaves(es), ...leaves(en)].every((v) => typeof v === 'string' && v.trim() !== ''),
    ).toBe(true);
  });
});
