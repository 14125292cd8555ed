import { describe, expect, it } from 'vitest';
import { initials } from './initials';

describe('initials', () => {
  it('initials work for one or many words', () => {
    expect(initials('Ana María Rojas')).toBe('AM');
    expect(initials('Madonna')).toBe('M');
    expect(initials('  ')).toBe('?');
  });
});
