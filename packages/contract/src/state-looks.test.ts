import { describe, expect, it } from 'vitest';
import { LOGGED_TIME_COLORS, STATUS_COLORS, STUDENT_STATE_COLORS } from './dashboard.js';
import { FOLLOW_UP_STATUSES } from './follow-up.js';
import { FIGURE_COLOURS, lastAccessGroup, STATE_LOOKS, stateLook } from './state-looks.js';

describe.each(Object.entries(STATE_LOOKS))('%s', (_kind, looks) => {
  const all = Object.values(looks);
  it('each state has one colour, distinct within its kind', () => {
    for (const l of all) expect(l.color).toMatch(/^#[0-9a-f]{6}$/i);
    expect(new Set(all.map((l) => l.color.toLowerCase())).size).toBe(all.length);
  });
  it('each state has a glyph of its own, a cue beside the colour', () => {
    for (const l of all) expect(l.glyph.trim()).not.toBe('');
    expect(new Set(all.map((l) => l.glyph)).size).toBe(all.length);
  });
});

describe('the states’ catalogue keys', () => {
  it('cover the seeded keys and nothing else', () => {
    expect(Object.keys(STATE_LOOKS.ticketStatus)).toEqual(['open', 'closed']);
    expect(Object.keys(STATE_LOOKS.priority)).toEqual(['high', 'medium', 'low']);
    expect(Object.keys(STATE_LOOKS.attemptResult)).toEqual(['success', 'failure']);
    expect(Object.keys(STATE_LOOKS.studentState)).toEqual([...FOLLOW_UP_STATUSES]);
  });
  it('read naturally: Alta and Fallido red, Baja and Exitoso green', () => {
    expect(stateLook('priority', 'high')?.color).toBe(stateLook('attemptResult', 'failure')?.color);
    expect(stateLook('priority', 'low')?.color).toBe(stateLook('attemptResult', 'success')?.color);
    expect(stateLook('priority', 'medium')?.color).not.toBe(stateLook('priority', 'high')?.color);
    expect(stateLook('priority', 'toString')).toBeUndefined();
    expect(stateLook('priority', null)).toBeUndefined();
  });
  it('the dashboard’s colours are these', () => {
    expect(STATUS_COLORS).toEqual({
      open: STATE_LOOKS.ticketStatus.open.color,
      closed: STATE_LOOKS.ticketStatus.closed.color,
    });
    expect(STUDENT_STATE_COLORS).toEqual(
      Object.values(STATE_LOOKS.studentState).map((l) => l.color),
    );
    expect(LOGGED_TIME_COLORS).toEqual(Object.values(STATE_LOOKS.lastAccess).map((l) => l.color));
    // The count card of students who never signed in is the chart's "Nunca".
    expect(FIGURE_COLOURS.inactive).toBe(STATE_LOOKS.lastAccess.never.color);
  });
  it('group a last access as the dashboard’s chart does (under a day, under a week, older)', () => {
    expect([null, 0, 1, 6, 7, 30].map(lastAccessGroup)).toEqual([
      'never',
      'day',
      'week',
      'week',
      'older',
      'older',
    ]);
  });
});
