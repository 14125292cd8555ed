import { setImmediate as nextTurn } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { BATCH, mapInTurns, stringifyInTurns, utf8InTurns } from '../src/lib/turns.js';

/** Rows shaped like an answer's: nested objects, dates, nulls, undefined, values with toJSON, odd numbers. */
const row = (i: number) => ({
  id: i,
  code: `ABC-${i}`,
  name: i % 7 === 0 ? 'Ñandú "comillas" \\ \u2028' : `Alumno ${i}`,
  at: new Date(Date.UTC(2026, 10, 1 + (i % 28))),
  gone: undefined,
  grade: i % 5 === 0 ? NaN : i / 3,
  nested: { list: Array.from({ length: i % 4 }, (_, k) => ({ k, v: i % 3 === 0 ? null : undefined })), custom: { toJSON: () => `t${i}` } },
});

describe('a whole answer written a batch per turn', () => {
  const shapes: Array<[string, unknown]> = [
    ['a short list', { success: true, _data: Array.from({ length: 10 }, (_, i) => row(i)) }],
    ['a long list in an envelope', { success: true, message: '', _data: { collections: Array.from({ length: BATCH * 3 + 7 }, (_, i) => row(i)), meta: { total: 3 }, skipped: undefined } }],
    ['a long list at the top', Array.from({ length: BATCH + 1 }, (_, i) => (i % 9 === 0 ? undefined : row(i)))],
    ['two long lists side by side', { a: Array.from({ length: BATCH * 2 }, (_, i) => i), b: { c: Array.from({ length: BATCH + 3 }, (_, i) => row(i)) }, d: 'x' }],
    ['exactly one batch', Array.from({ length: BATCH }, (_, i) => row(i))],
    ['plain values', 'texto'],
    ['null', null],
  ];
  for (const [name, value] of shapes) {
    it(`writes exactly what JSON.stringify writes: ${name}`, async () => {
      expect(await stringifyInTurns(value)).toBe(JSON.stringify(value));
      // The same as UTF-8 bytes, encoded a megabyte at a time.
      expect((await utf8InTurns(value)).equals(Buffer.from(JSON.stringify(value) ?? 'null'))).toBe(true);
    });
  }

  it('lets other work run between batches, and maps a long list in order', async () => {
    const seen: string[] = [];
    const long = Array.from({ length: BATCH * 4 }, (_, i) => i);
    const other = (async () => {
      await nextTurn();
      seen.push('other');
    })();
    const mapped = await mapInTurns(long, (i) => {
      if (i === 0 || i === long.length - 1) seen.push(`item ${i}`);
      return i * 2;
    });
    await other;
    expect(mapped).toEqual(long.map((i) => i * 2));
    expect(seen).toEqual(['item 0', 'other', `item ${long.length - 1}`]);

    const order: string[] = [];
    const writing = stringifyInTurns({ rows: long }).then(() => order.push('written'));
    await nextTurn();
    order.push('other');
    await writing;
    expect(order).toEqual(['other', 'written']);

    // Several megabytes: encoded between turns too (more turns than writing the text alone takes).
    const big = Array.from({ length: BATCH * 8 }, (_, i) => ({ i, text: `Ñ${'x'.repeat(1000)}` }));
    const turnsOf = async (work: Promise<unknown>) => {
      let done = false;
      void work.then(() => (done = true));
      let turns = 0;
      for (; !done; turns++) await nextTurn();
      return turns;
    };
    const bytes = utf8InTurns(big);
    const encodingTurns = await turnsOf(bytes);
    expect((await bytes).length).toBe(Buffer.byteLength(JSON.stringify(big)));
    expect(encodingTurns).toBeGreaterThan(await turnsOf(stringifyInTurns(big)));
  });
});
