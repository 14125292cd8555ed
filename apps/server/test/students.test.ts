import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import ExcelJS from 'exceljs';
import {
  computeDv,
  formatRut,
  IMPORT_LIMITS,
  MSG,
  SEARCH_COUNT_CAP,
  STUDENT_MSG,
} from '@sigaf/contract';
import { SHEET_MSG } from '../src/lib/spreadsheet.js';
import {
  heapBombWorkbook,
  lastColumnWorkbook,
  lineCsv,
  tallWorkbook,
  zipBombWorkbook,
} from './hostile-files.js';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_ADMIN } from './fixtures.js';
import { createTestContext, type TestContext } from './helpers.js';

let ctx: TestContext;
let admin: string;
let courseId: number;

async function xlsx(rows: Array<Array<string | number | { formula: string; result: string }>>) {
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet('Hoja1');
  ws.addRow([
    'RUT',
    'DV',
    'Nombre',
    'Paterno',
    'Materno',
    'Email',
    'Dirección',
    'Región',
    'Teléfono',
    'Celular',
    'RBD',
    'Colegio',
    'Región colegio',
    'Ciudad colegio',
    'Fono colegio',
  ]);
  for (const r of rows) ws.addRow(r);
  return Buffer.from(await wb.xlsx.writeBuffer());
}

function multipart(
  fields: Record<string, string>,
  file?: { name: string; content: Buffer; type?: string },
) {
  const boundary = '----sigaf' + Math.random().toString(16).slice(2);
  const parts: Buffer[] = [];
  for (const [k, v] of Object.entries(fields))
    parts.push(
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`),
    );
  if (file) {
    parts.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${file.name}"\r\nContent-Type: ${file.type ?? 'application/octet-stream'}\r\n\r\n`,
      ),
    );
    parts.push(file.content, Buffer.from('\r\n'));
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return {
    payload: Buffer.concat(parts),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
}

async function upload(
  url: string,
  fields: Record<string, string>,
  file?: { name: string; content: Buffer },
) {
  const m = multipart(fields, file);
  return ctx.request({ method: 'POST', url, token: admin, payload: m.payload, headers: m.headers });
}

beforeAll(async () => {
  ctx = await createTestContext();
  admin = await ctx.login(TEST_ADMIN.email, TEST_ADMIN.password);
  const platform = await ctx.db.selectFrom('platforms').select('id').executeTakeFirstOrThrow();
  const cat = await ctx.db
    .insertInto('categories')
    .values({ description: 'Operadores', category_code: 'OPER', platform_id: platform.id })
    .returning('id')
    .executeTakeFirstOrThrow();
  courseId = (
    await ctx.db
      .insertInto('courses')
      .values({ description: 'Grúa horquilla', category_id: cat.id })
      .returning('id')
      .executeTakeFirstOrThrow()
  ).id;
});
afterAll(() => ctx.close());

const GOOD = [
  [
    '12.345.678',
    '5',
    ' María ',
    'González',
    'Pérez',
    'MARIA@correo.cl',
    'Calle 1',
    'metropolitana de santiago',
    '',
    '+56911111111',
    '123',
    'Liceo A',
    'Biobío',
    'Concepción',
    '',
  ],
  ['11111111', '1', 'Juan', 'Soto', '', 'juan@correo.cl', '', 'Ñuble', '', '', '', '', '', '', ''],
];

describe('student import', () => {
  it('previews every row with its outcome and writes nothing', async () => {
    const file = await xlsx([
      ...GOOD,
      ['12345678', '9', 'Malo', 'Rut', '', 'x@y.cl'],
      ['22222222', '2', '', 'SinNombre', '', 'no-es-correo'],
      [],
      ['12345678', '5', 'María', 'Repetida', '', ''],
      [{ formula: '"1000001"&"3"', result: '10000013' }, 'K', 'Fórmula', 'Ok', '', ''],
    ]);
    const before = await ctx.db
      .selectFrom('registered_users')
      .select(sql<number>`count(*)`.as('n'))
      .executeTakeFirstOrThrow();
    const res = await upload(
      '/api/v2/registered-users/import',
      { course_id: String(courseId) },
      { name: 'alumnos.xlsx', content: file },
    );
    expect(res.statusCode).toBe(200);
    const { summary, rows } = res.json()._data;
    expect(summary).toMatchObject({
      total: 6,
      created: 3,
      enrolled: 3,
      rejected: 3,
      applied: false,
    });
    expect(rows.map((r: { row: number }) => r.row)).toEqual([2, 3, 4, 5, 7, 8]);
    expect(rows[0]).toMatchObject({
      rut: '12.345.678-5',
      name: 'María González Pérez',
      student: 'new',
      enrolment: 'enrolled',
      rejected: false,
    });
    expect(rows[2]).toMatchObject({ rejected: true, reasons: ['RUT no válido'] });
    expect(rows[3].reasons).toEqual(['Falta el nombre', 'Correo electrónico no válido']);
    expect(rows[4].reasons).toEqual(['RUT repetido en el archivo (fila 2)']);
    expect(rows[5]).toMatchObject({ rut: '10.000.013-K', rejected: false });
    const after = await ctx.db
      .selectFrom('registered_users')
      .select(sql<number>`count(*)`.as('n'))
      .executeTakeFirstOrThrow();
    expect(after.n).toBe(before.n);
  });

  it('applies on confirm: creates, normalises, enrols unsynced as Estudiante; a second run updates and reports already enrolled', async () => {
    const file = await xlsx(GOOD);
    const res = await upload(
      '/api/v2/registered-users/import',
      { course_id: String(courseId), confirm: '1' },
      { name: 'alumnos.xlsx', content: file },
    );
    expect(res.json()._data.summary).toMatchObject({ created: 2, enrolled: 2, applied: true });
    const maria = await ctx.db
      .selectFrom('registered_users')
      .selectAll()
      .where('rut', '=', '12.345.678-5')
      .executeTakeFirstOrThrow();
    expect(maria).toMatchObject({
      name: 'María',
      email: 'maria@correo.cl',
      region: 'Metropolitana de Santiago',
      mother_last_name: 'Pérez',
    });
    const enrolment = await ctx.db
      .selectFrom('course_registered_users as e')
      .innerJoin('profiles as p', 'p.id', 'e.profile_id')
      .select(['e.is_sincronized', 'p.key', 'e.classroom_id'])
      .where('e.registered_user_id', '=', maria.id)
      .executeTakeFirstOrThrow();
    expect(enrolment).toEqual({ is_sincronized: false, key: 'student', classroom_id: null });

    const changed = await xlsx([
      [...GOOD[0]!.slice(0, 9), '+56999999999', ...GOOD[0]!.slice(10)],
      GOOD[1]!,
    ]);
    const again = await upload(
      '/api/v2/registered-users/import',
      { course_id: String(courseId), confirm: 'true' },
      { name: 'alumnos.xlsx', content: changed },
    );
    expect(again.json()._data.summary).toMatchObject({
      created: 0,
      updated: 1,
      unchanged: 1,
      enrolled: 0,
      alreadyEnrolled: 2,
    });
    const updated = await ctx.db
      .selectFrom('registered_users')
      .select('mobile')
      .where('rut', '=', '12.345.678-5')
      .executeTakeFirstOrThrow();
    expect(updated.mobile).toBe('+56999999999');
  });

  it("maps free-text regions to the 16 regions, reports the ones it cannot, and shows a rejected row's RUT as the file had it", async () => {
    const rows = [
      [
        14_000_001,
        computeDv(14_000_001),
        'Ana',
        'Rojas',
        '',
        '',
        '',
        'Región Metropolitana de Santiago',
      ],
      [14_000_002, computeDv(14_000_002), 'Bea', 'Soto', '', '', '', 'XIV'],
      [14_000_003, computeDv(14_000_003), 'Ciro', 'Vera', '', '', '', 'Provincia de Buenos Aires'],
      ['12.345.678', '0', 'Dina', 'Paz'],
    ];
    const res = await upload(
      '/api/v2/registered-users/import',
      { course_id: String(courseId) },
      { name: 'regiones.xlsx', content: await xlsx(rows) },
    );
    expect(res.statusCode, res.body).toBe(200);
    const out = res.json()._data.rows as Array<{
      rut: string | null;
      rutInFile: string;
      rejected: boolean;
      notes: string[];
    }>;
    expect(out[0]).toMatchObject({ rejected: false, notes: [] });
    expect(out[2]!.notes).toEqual([
      'Región no reconocida: "Provincia de Buenos Aires" (se guarda tal cual)',
    ]);
    expect(out[3]).toMatchObject({ rut: null, rutInFile: '12.345.678-0', rejected: true });
    await upload(
      '/api/v2/registered-users/import',
      { course_id: String(courseId), confirm: '1' },
      { name: 'regiones.xlsx', content: await xlsx(rows) },
    );
    const regions = await ctx.db
      .selectFrom('registered_users')
      .select(['name', 'region'])
      .where('name', 'in', ['Ana', 'Bea', 'Ciro'])
      .where('last_name', 'in', ['Rojas', 'Soto', 'Vera'])
      .orderBy('name')
      .execute();
    expect(regions).toEqual([
      { name: 'Ana', region: 'Metropolitana de Santiago' },
      { name: 'Bea', region: 'Los Ríos' },
      { name: 'Ciro', region: 'Provincia de Buenos Aires' },
    ]);
    // Leave the course as the next tests expect it.
    const people = (
      await ctx.db
        .selectFrom('registered_users')
        .select('id')
        .where(
          'rut',
          'in',
          [14_000_001, 14_000_002, 14_000_003].map((b) => formatRut({ body: b, dv: computeDv(b) })),
        )
        .execute()
    ).map((p) => p.id);
    await ctx.db
      .deleteFrom('course_registered_users')
      .where('registered_user_id', 'in', people)
      .execute();
  });

  it('reads .csv with ; or , and quoted fields; the original /upload-file imports at once', async () => {
    const csv =
      '\uFEFFrut;dv;nombre;paterno;materno;email\r\n"15.000.000";"K";"Ana; María";Rojas;;ana@correo.cl\r\n';
    const dv = (await import('@sigaf/contract')).computeDv(15_000_000);
    const res = await upload(
      '/api/v2/upload-file',
      { courseId: String(courseId) },
      { name: 'a.csv', content: Buffer.from(csv.replace('"K"', `"${dv}"`)) },
    );
    expect(res.statusCode).toBe(200);
    expect(res.json()._data.summary).toMatchObject({ created: 1, applied: true });
    const ana = await ctx.db
      .selectFrom('registered_users')
      .select('name')
      .where('rut', '=', `15.000.000-${dv}`)
      .executeTakeFirstOrThrow();
    expect(ana.name).toBe('Ana; María');
  });

  it("reads Excel's Spanish CSV (Windows-1252) with its accents, and never takes a row holding U+FFFD as valid", async () => {
    const body = (n: number) => `${n};${computeDv(n)}`;
    // What Excel writes on a Spanish Windows: one byte per accented letter (ñ = F1, ó = F3, á = E1).
    const ansi = Buffer.from(
      `RUT;DV;Nombre;Paterno;Materno\r\n${body(16_000_001)};Iñaki;Muñoz;Cáceres\r\n${body(16_000_002)};José;Pérez;Ñúñez\r\n`,
      'latin1',
    );
    expect(ansi.includes(0xf1)).toBe(true);
    const res = await upload(
      '/api/v2/registered-users/import',
      { course_id: String(courseId) },
      { name: 'excel.csv', content: ansi },
    );
    expect(res.statusCode, res.body).toBe(200);
    const { summary, rows } = res.json()._data;
    expect(summary).toMatchObject({
      total: 2,
      created: 2,
      rejected: 0,
      applied: false,
      encoding: 'windows-1252',
    });
    expect(rows.map((r: { name: string }) => r.name)).toEqual([
      'Iñaki Muñoz Cáceres',
      'José Pérez Ñúñez',
    ]);
    // A file already garbled (the replacement character saved in UTF-8): the row is refused, with the reason.
    const garbled = Buffer.from(
      `RUT;DV;Nombre;Paterno\r\n${body(16_000_003)};I\uFFFDaki;Mu\uFFFDoz\r\n${body(16_000_004)};Ana;Rojas\r\n`,
      'utf8',
    );
    const bad = (
      await upload(
        '/api/v2/registered-users/import',
        { course_id: String(courseId) },
        { name: 'roto.csv', content: garbled },
      )
    ).json()._data;
    expect(bad.summary).toMatchObject({ total: 2, created: 1, rejected: 1, encoding: 'utf-8' });
    expect(bad.rows[0]).toMatchObject({
      rejected: true,
      student: null,
      reasons: [expect.stringContaining('caracteres ilegibles')],
    });
    expect(bad.rows[1]).toMatchObject({ rejected: false, student: 'new' });
  });

  it('refuses wrong types, empty files, missing course and oversized files with clear messages', async () => {
    const pdf = await upload(
      '/api/v2/registered-users/import',
      { course_id: String(courseId) },
      { name: 'x.pdf', content: Buffer.from('%PDF-1.4') },
    );
    expect(pdf.statusCode).toBe(415);
    expect(pdf.json().message).toBe(
      'Tipo de archivo no soportado. Cargue un archivo .xlsx o .csv.',
    );
    const fake = await upload(
      '/api/v2/registered-users/import',
      { course_id: String(courseId) },
      { name: 'x.xlsx', content: Buffer.from('not a zip') },
    );
    expect(fake.statusCode).toBe(415);
    const empty = await upload(
      '/api/v2/registered-users/import',
      { course_id: String(courseId) },
      { name: 'x.csv', content: Buffer.from('rut;dv\r\n') },
    );
    expect(empty.statusCode).toBe(422);
    expect(empty.json().message).toBe('El archivo no contiene filas de datos.');
    const noFile = await upload('/api/v2/registered-users/import', { course_id: String(courseId) });
    expect(noFile.statusCode).toBe(422);
    expect(noFile.json().message).toBe('Debe adjuntar un archivo.');
    const noCourse = await upload(
      '/api/v2/registered-users/import',
      {},
      { name: 'a.csv', content: Buffer.from('a\r\n1') },
    );
    expect(noCourse.json()._data.errors.course_id).toEqual(['Seleccione un curso.']);
    const huge = await upload(
      '/api/v2/registered-users/import',
      { course_id: String(courseId) },
      { name: 'a.csv', content: Buffer.alloc(11 * 1024 * 1024, 'a') },
    );
    expect(huge.statusCode).toBe(413);
    expect(huge.json().message).toBe('El archivo supera el tamaño máximo de 10 MB.');
  });

  it('reads hostile spreadsheets row by row off the main thread: one cell in column XFD, too many rows, 10 MB of lines', async () => {
    const preview = (name: string, content: Buffer) =>
      upload('/api/v2/registered-users/import', { course_id: String(courseId) }, { name, content });
    // 2,000 rows each holding one cell in the last column: a 17 KB file that used to exhaust the heap.
    const xfd = await preview('formato.xlsx', await lastColumnWorkbook(2000));
    expect(xfd.statusCode).toBe(422);
    expect(xfd.json()).toMatchObject({ success: false, message: SHEET_MSG.empty });
    // More rows than the limit: refused as soon as the reader meets them.
    const tall = await preview('grande.xlsx', await tallWorkbook(IMPORT_LIMITS.maxRows + 5000));
    expect([tall.statusCode, tall.json().message]).toEqual([
      413,
      SHEET_MSG.tooManyRows(IMPORT_LIMITS.maxRows),
    ]);
    const lines = await preview('lineas.csv', lineCsv(IMPORT_LIMITS.maxBytes - 1024));
    expect([lines.statusCode, lines.json().message]).toEqual([
      413,
      SHEET_MSG.tooManyRows(IMPORT_LIMITS.maxRows),
    ]);
    // And the server still reads an ordinary file right after.
    const ok = await preview(
      'alumnos.xlsx',
      await xlsx([[13_000_000 + 1, computeDv(13_000_001), 'Ana', 'Rojas']]),
    );
    expect(ok.statusCode, ok.body).toBe(200);
  });

  it('refuses a zip bomb before it is inflated and leaves no temporary file, also when the reading thread dies', async () => {
    const preview = (name: string, content: Buffer) =>
      upload('/api/v2/registered-users/import', { course_id: String(courseId) }, { name, content });
    // The server's temporary folder, for this test alone: anything left in it was left by the upload.
    const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'sigaf-students-tmp-'));
    const previous = process.env.TMPDIR;
    process.env.TMPDIR = tmp;
    const seen = new Set<string>();
    const watching = setInterval(() => fs.readdirSync(tmp).forEach((n) => seen.add(n)), 5);
    try {
      // ~250 KB whose sheet inflates to 256 MB: bytes no reader accepts, saying so or claiming 1 KB (counted as
      // they are inflated), and well-formed XML claiming 1 KB (the streamed reader's case).
      const bombs = [
        ['bomba.xlsx', await zipBombWorkbook(256)],
        ['bomba-oculta.xlsx', await zipBombWorkbook(256, { declared: 1024 })],
        ['bomba-xml.xlsx', await zipBombWorkbook(256, { xml: true, declared: 1024 })],
      ] as const;
      for (const [name, file] of bombs) {
        expect(file.length).toBeLessThan(400 * 1024);
        const res = await preview(name, file);
        expect([res.statusCode, res.json().message], name).toEqual([422, SHEET_MSG.unreadable]);
        expect(fs.readdirSync(tmp), name).toEqual([]);
      }
      // Millions of shared strings end the reading thread (its heap limit): its temporary folder goes with it.
      const heavy = await preview('memoria.xlsx', await heapBombWorkbook());
      expect([heavy.statusCode, heavy.json().message]).toEqual([422, SHEET_MSG.unreadable]);
      expect(fs.readdirSync(tmp)).toEqual([]);
      // The reading thread had its own temporary folder there, removed when it ended.
      expect([...seen].some((n) => n.startsWith('sigaf-sheet-'))).toBe(true);
    } finally {
      clearInterval(watching);
      if (previous === undefined) delete process.env.TMPDIR;
      else process.env.TMPDIR = previous;
      fs.rmSync(tmp, { recursive: true, force: true });
    }
    // The server still answers, and reads an ordinary file.
    expect((await ctx.request({ method: 'GET', url: '/health' })).statusCode).toBe(200);
    const ok = await preview(
      'alumnos.xlsx',
      await xlsx([[13_000_000 + 2, computeDv(13_000_002), 'Ana', 'Rojas']]),
    );
    expect(ok.statusCode, ok.body).toBe(200);
  });

  it('is all-or-nothing: a failure while applying leaves nothing written', async () => {
    await sql`create or replace function sigaf_test_fail() returns trigger as $$ begin if new.name = 'Explota' then raise exception 'boom'; end if; return new; end $$ language plpgsql`.execute(
      ctx.db,
    );
    await sql`create trigger sigaf_test_fail before insert on registered_users for each row execute function sigaf_test_fail()`.execute(
      ctx.db,
    );
    const count = async () =>
      Number(
        (
          await ctx.db
            .selectFrom('registered_users')
            .select(sql<number>`count(*)`.as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    const before = await count();
    const file = await xlsx([
      [
        '20000000',
        String((await import('@sigaf/contract')).computeDv(20_000_000)),
        'Antes',
        'Bien',
        '',
        '',
      ],
      [
        '20000001',
        String((await import('@sigaf/contract')).computeDv(20_000_001)),
        'Explota',
        'Mal',
        '',
        '',
      ],
    ]);
    const res = await upload(
      '/api/v2/registered-users/import',
      { course_id: String(courseId), confirm: '1' },
      { name: 'a.xlsx', content: file },
    );
    expect(res.statusCode).toBe(500);
    expect(res.json().message).toBe(MSG.fatal);
    expect(await count()).toBe(before);
    await sql`drop trigger sigaf_test_fail on registered_users`.execute(ctx.db);
  });

  it('gives a template with the column headers', async () => {
    const res = await ctx.request({
      method: 'GET',
      url: '/api/v2/registered-users/import/template?format=csv',
      token: admin,
    });
    expect(res.headers['content-disposition']).toContain('plantilla-matricula.csv');
    expect(res.body).toContain('RUT (sin puntos ni dígito verificador);Dígito verificador;Nombre');
    // The example row holds no cell a spreadsheet would show with a stray apostrophe.
    expect(res.body).toContain(';9 1234 5678;');
    expect(res.body).not.toContain(";'");
  });
});

describe('students and enrolments', () => {
  it('finds a student by any spelling of the RUT; body statusCode 406 for an invalid one, 204 when unknown (HTTP 200, as the original client needs)', async () => {
    for (const spelling of ['12.345.678-5', '12345678-5', '123456785']) {
      const res = await ctx.request({
        method: 'GET',
        url: `/api/v2/registered-user/${spelling}`,
        token: admin,
      });
      expect(res.statusCode).toBe(200);
      expect(res.json()._data.properties.rut).toBe('12.345.678-5');
      // The raw student as well.
      expect(res.json()._data).toMatchObject({ rut: '12.345.678-5', last_name: 'González' });
    }
    const bad = await ctx.request({
      method: 'GET',
      url: '/api/v2/registered-user/12.345.678-9',
      token: admin,
    });
    expect(bad.statusCode).toBe(200);
    expect(bad.json()).toMatchObject({ success: false, statusCode: 406, message: 'RUT no válido' });
    const unknown = await ctx.request({
      method: 'GET',
      url: '/api/v2/registered-user/9.999.999-3',
      token: admin,
    });
    expect(unknown.statusCode).toBe(200);
    expect(unknown.json()).toMatchObject({
      success: false,
      statusCode: 204,
      message: STUDENT_MSG.notRegistered,
      _data: null,
    });
  });

  it('view-store creates then updates; view-update edits contact data', async () => {
    const body = {
      rut: '7.654.321-6',
      name: 'Pedro',
      last_name: 'Lagos',
      email: 'pedro@correo.cl',
      region: 'Maule',
    };
    const first = await ctx.request({
      method: 'POST',
      url: '/api/v2/registered-users/view-store',
      token: admin,
      payload: body,
    });
    expect(first.statusCode).toBe(201);
    const id = first.json()._data.properties.id;
    const second = await ctx.request({
      method: 'POST',
      url: '/api/v2/registered-users/view-store',
      token: admin,
      payload: { ...body, id, city: 'Talca' },
    });
    expect(second.statusCode).toBe(200);
    expect(second.json()._data.properties).toMatchObject({ id, city: 'Talca' });
    const op = await ctx.userWithRole('operator');
    const quick = await ctx.request({
      method: 'PUT',
      url: `/api/v2/registered-users/${id}/view-update`,
      token: op.token,
      payload: { mobile: '+56955555555' },
    });
    expect(quick.json()._data.properties.mobile).toBe('+56955555555');
    const badRut = await ctx.request({
      method: 'POST',
      url: '/api/v2/registered-users/view-store',
      token: admin,
      payload: { ...body, rut: '7.654.321-0' },
    });
    expect(badRut.statusCode).toBe(422);
    expect(badRut.json()._data.errors.rut).toEqual([STUDENT_MSG.rutInvalid]);
  });

  it('operators correct contact data only: the RUT and the names stay with administrators, on every route', async () => {
    const created = await ctx.request({
      method: 'POST',
      url: '/api/v2/registered-users/view-store',
      token: admin,
      payload: { rut: '9.876.543-3', name: 'Rosa', last_name: 'Vidal', email: 'rosa@correo.cl' },
    });
    const id = created.json()._data.properties.id;
    const op = await ctx.userWithRole('operator');
    for (const change of [
      { rut: '11.111.111-1' },
      { name: 'Otra' },
      { last_name: 'Otro' },
      { mother_last_name: 'Tercero' },
    ]) {
      const res = await ctx.request({
        method: 'PUT',
        url: `/api/v2/registered-users/${id}/view-update`,
        token: op.token,
        payload: { ...change, mobile: '+56911111111' },
      });
      expect([res.statusCode, res.json().message], JSON.stringify(change)).toEqual([
        403,
        STUDENT_MSG.identityAdminOnly,
      ]);
    }
    const std = await ctx.request({
      method: 'PUT',
      url: `/api/v2/registered-users/${id}`,
      token: op.token,
      payload: { rut: '11.111.111-1' },
    });
    expect(std.statusCode).toBe(403);
    const row = await ctx.db
      .selectFrom('registered_users')
      .select(['rut', 'name', 'last_name', 'mother_last_name', 'mobile'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({
      rut: '9.876.543-3',
      name: 'Rosa',
      last_name: 'Vidal',
      mother_last_name: null,
      mobile: null,
    });
    // The same names sent back with a contact change (as a whole form does) are no change.
    const contact = await ctx.request({
      method: 'PUT',
      url: `/api/v2/registered-users/${id}/view-update`,
      token: op.token,
      payload: { rut: '9.876.543-3', name: 'Rosa', last_name: 'Vidal', mobile: '+56922222222' },
    });
    expect(contact.statusCode).toBe(200);
    const byAdmin = await ctx.request({
      method: 'PUT',
      url: `/api/v2/registered-users/${id}/view-update`,
      token: admin,
      payload: { name: 'Rosa María' },
    });
    expect(byAdmin.json()._data.properties.name).toBe('Rosa María');
  });

  it("enrols, refuses a second enrolment, lists a course's users paginated and searchable, and deletes", async () => {
    const student = (
      await ctx.request({ method: 'GET', url: '/api/v2/registered-user/7.654.321-6', token: admin })
    ).json()._data.properties;
    const enrol = await ctx.request({
      method: 'POST',
      url: '/api/v2/course-registered-users/view-store',
      token: admin,
      payload: { course_id: courseId, registered_user_id: student.id },
    });
    expect(enrol.statusCode).toBe(201);
    expect(enrol.json()._data.properties).toMatchObject({
      profile: { key: 'student' },
      classroom: { id: null, description: 'Sin aula' },
      classroomId: null,
      isSincronized: false,
    });
    const twice = await ctx.request({
      method: 'POST',
      url: '/api/v2/course-registered-users/view-store',
      token: admin,
      payload: { course_id: courseId, registered_user_id: student.id },
    });
    expect(twice.statusCode).toBe(409);
    expect(twice.json().message).toBe(STUDENT_MSG.alreadyEnrolled);

    const page = await ctx.request({
      method: 'GET',
      url: `/api/v2/course-registered-user/${courseId}/users?page=1&perPage=2&sort=rut`,
      token: admin,
    });
    expect(page.json()._data).toMatchObject({
      current_page: 1,
      per_page: 2,
      total: 4,
      last_page: 2,
      from: 1,
      to: 2,
      prev_page_url: null,
    });
    expect(page.json()._data.next_page_url).toMatch(
      /\/api\/v2\/course-registered-user\/\d+\/users\?page=2&perPage=2&sort=rut$/,
    );
    const last = await ctx.request({
      method: 'GET',
      url: `/api/v2/course-registered-user/${courseId}/users?page=2&perPage=2&sort=rut`,
      token: admin,
    });
    expect(last.json()._data).toMatchObject({
      current_page: 2,
      next_page_url: null,
      from: 3,
      to: 4,
    });
    const search = await ctx.request({
      method: 'GET',
      url: `/api/v2/course-registered-user/${courseId}/users?search=lagos`,
      token: admin,
    });
    expect(
      search
        .json()
        ._data.data.map((c: { registered_user: { rut: string } }) => c.registered_user.rut),
    ).toEqual(['7.654.321-6']);
    const lookup = await ctx.request({
      method: 'GET',
      url: `/api/v2/course-registered-user/${student.id}/courses/${courseId}`,
      token: admin,
    });
    expect(lookup.statusCode).toBe(200);
    expect(lookup.json()._data).toMatchObject({
      registered_user: { id: student.id },
      is_sincronized: 0,
      activity_course_users: [],
    });
    const count = await ctx.request({
      method: 'GET',
      url: `/api/v2/course-registered-users/${courseId}/count`,
      token: admin,
    });
    expect(count.json()._data).toEqual({ id: courseId, count: 4 });
    const courses = await ctx.request({
      method: 'GET',
      url: `/api/v2/course-users/${student.id}/courses`,
      token: admin,
    });
    expect(courses.json()._data).toHaveLength(1);
    expect(courses.json()._data[0].properties.course.id).toBe(courseId);

    const del = await ctx.request({
      method: 'DELETE',
      url: `/api/v2/course-registered-users/${enrol.json()._data.properties.id}`,
      token: admin,
    });
    expect(del.statusCode).toBe(200);
    const gone = await ctx.request({
      method: 'GET',
      url: `/api/v2/course-registered-user/${student.id}/courses/${courseId}`,
      token: admin,
    });
    expect(gone.statusCode).toBe(200);
    expect(gone.json()).toMatchObject({
      success: false,
      statusCode: 204,
      message: STUDENT_MSG.notEnrolled,
      _data: null,
    });
  });

  it('one person matcher: every name search ignores accents and case, in students, enrolments and staff', async () => {
    const created = await ctx.request({
      method: 'POST',
      url: '/api/v2/registered-users/view-store',
      token: admin,
      payload: {
        rut: '5.126.663-3',
        name: 'Constanza',
        last_name: 'Martínez',
        mother_last_name: 'Muñoz',
        email: 'cmartinez@correo.cl',
      },
    });
    expect(created.statusCode).toBe(201);
    const student = created.json()._data.properties;
    const enrolment = await ctx.request({
      method: 'POST',
      url: '/api/v2/course-registered-users/view-store',
      token: admin,
      payload: { course_id: courseId, registered_user_id: student.id },
    });
    const ruts = (res: {
      json(): {
        _data: {
          collections?: Array<{ properties: { rut: string } }>;
          data?: Array<{ registered_user: { rut: string } }>;
        };
      };
    }) =>
      res.json()._data.collections?.map((c) => c.properties.rut) ??
      res.json()._data.data!.map((e) => e.registered_user.rut);
    for (const search of [
      'constanza martinez',
      'CONSTANZA MARTÍNEZ',
      'munoz',
      'Muñoz',
      'martínez muñoz',
      '5126663',
      'cmartinez@',
    ]) {
      const q = encodeURIComponent(search);
      expect(
        ruts(
          await ctx.request({
            method: 'GET',
            url: `/api/v2/registered-users?search=${q}`,
            token: admin,
          }),
        ),
        search,
      ).toEqual(['5.126.663-3']);
      expect(
        ruts(
          await ctx.request({
            method: 'GET',
            url: `/api/v2/course-registered-user/${courseId}/users?search=${q}`,
            token: admin,
          }),
        ),
        search,
      ).toEqual(['5.126.663-3']);
    }
    const staff = await ctx.userWithRole('operator');
    await ctx.db
      .updateTable('users')
      .set({ name: 'Ñuñoa Pérez' })
      .where('id', '=', staff.id)
      .execute();
    const found = await ctx.request({
      method: 'GET',
      url: '/api/v2/users?search=nunoa%20perez',
      token: admin,
    });
    expect(
      found.json()._data.collections.map((c: { properties: { id: number } }) => c.properties.id),
    ).toContain(staff.id);
    await ctx.request({
      method: 'DELETE',
      url: `/api/v2/course-registered-users/${enrolment.json()._data.properties.id}`,
      token: admin,
    });
  });

  it('a search across courses counts its matches up to SEARCH_COUNT_CAP, and says when there are more', async () => {
    const n = SEARCH_COUNT_CAP + 3;
    await sql`insert into registered_users (rut, name, last_name) select 'cap-' || i, 'Capado', 'Número ' || i from generate_series(1, ${n}) i`.execute(
      ctx.db,
    );
    try {
      const many = (
        await ctx.request({
          method: 'GET',
          url: '/api/v2/registered-users?search=capado&page=2&perPage=10',
          token: admin,
        })
      ).json();
      expect(many._data.meta).toEqual({
        page: 2,
        perPage: 10,
        total: SEARCH_COUNT_CAP,
        lastPage: SEARCH_COUNT_CAP / 10,
        totalCapped: true,
      });
      expect(many._data.collections).toHaveLength(10);
      const last = (
        await ctx.request({
          method: 'GET',
          url: `/api/v2/registered-users?search=capado&page=${SEARCH_COUNT_CAP / 10 + 1}&perPage=10`,
          token: admin,
        })
      ).json();
      expect(last._data.collections).toHaveLength(3); // past the counted ones, the pages still answer
      const few = (
        await ctx.request({
          method: 'GET',
          url: '/api/v2/registered-users?search=n%C3%BAmero%2010&page=1&perPage=10',
          token: admin,
        })
      ).json();
      expect(few._data.meta).toEqual({ page: 1, perPage: 10, total: 15, lastPage: 2 }); // 10, 100-109, 1000-1003: exact
    } finally {
      await sql`delete from registered_users where rut like 'cap-%'`.execute(ctx.db);
    }
  });

  it('builds classrooms: assigns many, says so, counts per classroom, splits the rest evenly', async () => {
    const list = (
      await ctx.request({
        method: 'GET',
        url: `/api/v2/course-registered-user/${courseId}/users/all`,
        token: admin,
      })
    ).json()._data;
    const ids = list.map((c: { id: number }) => c.id);
    const aula1 = await ctx.db
      .selectFrom('classrooms')
      .select('id')
      .where('description', '=', 'Aula 1')
      .executeTakeFirstOrThrow();
    const aula2 = await ctx.db
      .selectFrom('classrooms')
      .select('id')
      .where('description', '=', 'Aula 2')
      .executeTakeFirstOrThrow();
    const res = await ctx.request({
      method: 'PUT',
      url: `/api/v2/course-registered-user/classroom/${aula1.id}/users`,
      token: admin,
      payload: { courseRegisteredUsers: ids.slice(0, 1) },
    });
    expect(res.json().message).toBe('Se ha conformado el Aula 1 con 1 estudiantes');
    // The rows assigned, each with its new classroom.
    expect(res.json()._data).toMatchObject([
      { id: ids[0], classroom: { id: aula1.id, description: 'Aula 1' }, classroomId: aula1.id },
    ]);
    const preview = await ctx.request({
      method: 'POST',
      url: '/api/v2/course-registered-user/classroom/auto-split',
      token: admin,
      payload: { course_id: courseId, classroom_ids: [aula1.id, aula2.id] },
    });
    expect(preview.json()._data).toMatchObject({
      applied: false,
      total: 2,
      plan: [
        { classroom: 'Aula 1', count: 1 },
        { classroom: 'Aula 2', count: 1 },
      ],
    });
    await ctx.request({
      method: 'POST',
      url: '/api/v2/course-registered-user/classroom/auto-split',
      token: admin,
      payload: { course_id: courseId, classroom_ids: [aula1.id, aula2.id], confirm: true },
    });
    const chart = await ctx.request({
      method: 'GET',
      url: `/api/v2/courses/${courseId}/classrooms`,
      token: admin,
    });
    expect(chart.json()._data).toEqual([
      { classroomId: aula1.id, classroom: 'Aula 1', count: 2 },
      { classroomId: aula2.id, classroom: 'Aula 2', count: 1 },
    ]);
    const empty = await ctx.request({
      method: 'PUT',
      url: `/api/v2/course-registered-user/classroom/${aula1.id}/users`,
      token: admin,
      payload: { courseRegisteredUsers: [] },
    });
    expect(empty.statusCode).toBe(422);
  });

  it('exports the roster as .xlsx', async () => {
    const res = await ctx.request({
      method: 'GET',
      url: `/api/v2/download-file/excel/${courseId}/roster`,
      token: admin,
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-disposition']).toContain('matricula-grua-horquilla-');
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    const ws = wb.worksheets[0]!;
    expect(ws.getRow(2).values).toEqual([
      undefined,
      'RUT',
      'NOMBRE',
      'APELLIDO PATERNO',
      'APELLIDO MATERNO',
      'CORREO ELECTRÓNICO',
      'AULA',
      'ROL',
      'CURSO',
    ]);
    expect(ws.rowCount).toBe(2 + 3);
  });
});
