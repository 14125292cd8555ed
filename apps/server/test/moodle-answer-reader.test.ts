import fs from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../src/config.js';
import {
  AnswerTooLarge,
  DROP,
  JsonAnswerReader,
  type AnswerHooks,
  type ReadAnswer,
} from '../src/moodle/answer-reader.js';
import { generateSite } from '../../../tools/moodle-sim/src/generator.js';
import { dispatch, phpJson } from '../../../tools/moodle-sim/src/server.js';

/** Feeds `text` to a reader in chunks cut at the given sizes (cycled). */
function read(
  text: string | Buffer,
  cuts: number[] = [text.length || 1],
  maxBytes = 64 * 1024 * 1024,
): ReadAnswer {
  const bytes = Buffer.isBuffer(text) ? text : Buffer.from(text, 'utf8');
  const reader = new JsonAnswerReader({ maxBytes, maxSliceBytes: 1024 * 1024 });
  for (let at = 0, k = 0; at < bytes.length; k++) {
    const size = Math.max(1, cuts[k % cuts.length]!);
    reader.write(bytes.subarray(at, at + size));
    at += size;
  }
  return reader.end();
}

const refusal = (f: () => unknown) => {
  try {
    f();
  } catch (e) {
    if (e instanceof AnswerTooLarge) return e.detail;
    throw e;
  }
  throw new Error('expected a refusal');
};

describe('reading a Moodle answer in slices', () => {
  it('gives what JSON.parse gives, however the bytes are cut', () => {
    fc.assert(
      fc.property(
        fc.jsonValue({ maxDepth: 5 }),
        fc.array(fc.integer({ min: 1, max: 40 }), { minLength: 1, maxLength: 8 }),
        fc.boolean(),
        (value, cuts, spaced) => {
          const text = JSON.stringify(value, null, spaced ? 2 : undefined);
          const got = read(text, cuts);
          expect(got).toEqual({ json: { value: JSON.parse(text) } });
        },
      ),
      { numRuns: 400 },
    );
  });

  it('reads strings with escapes, quotes and backslashes across chunk boundaries, and a member named __proto__', () => {
    const value = {
      'a"b\\': ['x\\"y', '\\\\', 'ñandú ✓ \u{1F600}', '"'],
      __proto__x: 1,
      list: [{ k: '\\' }, 2, null],
      n: -1.5e3,
    };
    const text = JSON.stringify(value);
    for (let cut = 1; cut <= 7; cut++) expect(read(text, [cut])).toEqual({ json: { value } });
    const proto = read('{"__proto__":{"polluted":true},"x":[1]}');
    expect('json' in proto && Object.keys(proto.json.value as object)).toEqual(['__proto__', 'x']);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('hands each list element to the caller as its slice is parsed, keeps what it returns, and tells the memory a slice builds before building it', () => {
    const seen: Array<[string, number]> = [];
    let held = 0;
    const hooks: AnswerHooks = {
      element: (list, value, index) => {
        seen.push([list, index]);
        return (value as { n: number }).n % 2 ? DROP : { kept: (value as { n: number }).n };
      },
      hold: (bytes) => (held += bytes),
    };
    const text = JSON.stringify({
      usergrades: [{ n: 0 }, { n: 1 }, { n: 2 }],
      warnings: [],
      name: 'x',
    });
    const reader = new JsonAnswerReader({ maxBytes: 1024 * 1024 }, hooks);
    reader.write(Buffer.from(text));
    expect(reader.end()).toEqual({
      json: { value: { usergrades: [{ kept: 0 }, { kept: 2 }], warnings: [], name: 'x' } },
    });
    expect(seen).toEqual([
      ['usergrades', 0],
      ['usergrades', 1],
      ['usergrades', 2],
    ]);
    // Every byte of the values, plus 64 per object or list and 8 per value.
    expect(held).toBeGreaterThanOrEqual(
      text.length - '{"usergrades":,"warnings":,"name":}'.length + 4 * 64,
    );

    // A refusal stops the reading at the slice that holds the element, long before the answer's end.
    const big = Buffer.from(
      `[${Array.from({ length: 200_000 }, (_, i) => JSON.stringify({ id: i, name: 'x'.repeat(20) })).join(',')}]`,
    );
    const refusing = new JsonAnswerReader(
      { maxBytes: 64 * 1024 * 1024 },
      {
        element: (_list, value) => {
          if ((value as { id: number }).id === 10) throw new Error('element 10 refused');
          return value;
        },
      },
    );
    let written = 0;
    expect(() => {
      for (; written < big.length; written += 64 * 1024)
        refusing.write(big.subarray(written, written + 64 * 1024));
    }).toThrow('element 10 refused');
    expect(written).toBeLessThan(512 * 1024);
    // A budget that refuses refuses before the slice is parsed.
    const budgeted = new JsonAnswerReader(
      { maxBytes: 64 * 1024 * 1024 },
      {
        hold: () => {
          throw new AnswerTooLarge('sin memoria');
        },
        element: () => {
          throw new Error('never parsed');
        },
      },
    );
    expect(refusal(() => budgeted.write(big))).toBe('sin memoria');
  });

  it('drops a byte order mark; what is not JSON is reported by its first bytes', () => {
    expect(read('\uFEFF[1,2]')).toEqual({ json: { value: [1, 2] } });
    expect(read('<html><body>Error</body></html>')).toEqual({
      text: '<html><body>Error</body></html>',
    });
    expect(read('')).toEqual({ text: '' });
    for (const broken of [
      '[1,2',
      '{"a":1',
      '{"a":1}}',
      '[1]x',
      '{"a" 1}',
      '{,}',
      '{"a":1,}',
      '[1,]',
      'nul',
      '{"a":[1,2}',
    ]) {
      expect('text' in read(broken, [3]), broken).toBe(true);
    }
    const long = `<html>${'x'.repeat(10_000)}</html>`;
    const head = read(long);
    expect('text' in head && head.text.length).toBe(2048);
  });

  it('every recorded answer of a real Moodle, and a large course of the simulator, is read within the limits', () => {
    const dir = path.join(REPO_ROOT, 'tools/moodle-sim/fixtures');
    const files = fs.readdirSync(dir).filter((f) => f.endsWith('.json'));
    expect(files.length).toBeGreaterThan(40);
    for (const f of files) {
      const text = fs.readFileSync(path.join(dir, f), 'utf8');
      if (text.trim() === '')
        expect(read(text), f).toEqual({ text }); // an empty answer of a write function
      else expect(read(text, [4096]), f).toEqual({ json: { value: JSON.parse(text) } });
    }
    // Real answers are far from the density limits: a course of 2,000 students × 50 activities.
    const g = generateSite({
      seed: 3,
      courses: 1,
      studentsPerCourse: 2000,
      units: 11,
      activitiesPerUnit: 4,
      invalidRutRate: 0,
      groupsPerCourse: 4,
    });
    const call = (wsfunction: string, params: Record<string, string>) =>
      dispatch(
        g.site,
        'http://moodle.test',
        new Map<string, unknown>([
          ['wstoken', g.tokens.admin],
          ['wsfunction', wsfunction],
          ...Object.entries(params),
        ]),
      ).result;
    const course = String(g.courseIds[0]);
    for (const [fn, params] of [
      ['gradereport_user_get_grade_items', { courseid: course, userid: '0' }],
      ['core_enrol_get_enrolled_users', { courseid: course }],
      ['core_course_get_contents', { courseid: course }],
      ['core_group_get_course_groups', { courseid: course }],
      ['core_webservice_get_site_info', {}],
    ] as const) {
      const text = phpJson(call(fn, params));
      expect(text.length, fn).toBeGreaterThan(100);
      expect(read(text, [65_536]), fn).toEqual({ json: { value: JSON.parse(text) } });
    }
  });

  it('refuses an answer past its byte limit, an element past the slice limit, and dense or deep JSON', () => {
    expect(refusal(() => read(`[${'"abcdefgh",'.repeat(200)}1]`, [100], 1000))).toBe('más de 0 MB');
    expect(refusal(() => read(`{"sitename":"${'x'.repeat(3 * 1024 * 1024)}"}`, [65_536]))).toBe(
      'un elemento de más de 1 MB',
    );
    expect(refusal(() => read(`[${'1,'.repeat(100_000)}1]`, [65_536]))).toBe(
      'demasiados valores para su tamaño',
    );
    expect(refusal(() => read(`[${'{},'.repeat(100_000)}{}]`, [65_536]))).toBe(
      'demasiados objetos y listas para su tamaño',
    );
    expect(refusal(() => read(`${'['.repeat(100)}${']'.repeat(100)}`))).toBe(
      'más de 64 niveles de anidamiento',
    );
    // Commas and braces inside strings are text, not structure.
    const quoted = JSON.stringify([`${',{['.repeat(100_000)}`]);
    expect(read(quoted, [65_536])).toEqual({ json: { value: JSON.parse(quoted) } });
  });
});
