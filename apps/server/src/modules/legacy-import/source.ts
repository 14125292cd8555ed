import mysql from 'mysql2/promise';

import { LegacyImportRefused } from './refused.js';

export type LegacyRow = Record<string, unknown>;

/**
 * The tables every SIGAF 1.x installation has (its first migrations, March 2020). Without one of
 * them the database is not SIGAF's, or is damaged: the import stops before writing anything.
 * Tables added later (`source_tickets`, `type_tickets`, `sections`, `section_courses`,
 * `course_tutors`, `log_editing_tickets`, …) may be missing: that is a note in the report.
 */
export const REQUIRED_TABLES = [
  'users',
  'roles',
  'platforms',
  'categories',
  'courses',
  'activities',
  'registered_users',
  'course_registered_users',
  'profiles',
  'classrooms',
  'final_statuses',
  'activity_course_users',
  'tickets',
  'ticket_details',
  'status_tickets',
  'priority_tickets',
  'motive_tickets',
  'status_detail_tickets',
  'alerts',
] as const;

/** One Spanish line for a failure to reach or enter the source (never a stack trace). */
export function connectionMessage(url: string, err: unknown): string {
  let where = 'el servidor de origen';
  let database = '';
  try {
    const u = new URL(url);
    where = `${u.hostname}:${u.port || '3306'}`;
    database = decodeURIComponent(u.pathname.replace(/^\//, ''));
  } catch {
    return 'La dirección de --from no es válida: use mysql://usuario:clave@servidor:3306/base.';
  }
  const e = err as { code?: string; message?: string };
  switch (e.code) {
    case 'ER_ACCESS_DENIED_ERROR':
    case 'ER_ACCESS_DENIED_NO_PASSWORD_ERROR':
      return `El servidor de origen ${where} rechazó el usuario o la clave de --from.`;
    case 'ER_DBACCESS_DENIED_ERROR':
      return `El usuario de --from no tiene acceso a la base de datos «${database}» en ${where}.`;
    case 'ER_BAD_DB_ERROR':
      return `La base de datos «${database}» no existe en el servidor de origen ${where}.`;
    case 'ECONNREFUSED':
      return `No se pudo conectar con el servidor de origen ${where}: rechazó la conexión (¿está en marcha y escucha en ese puerto?).`;
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return `No se encontró el servidor de origen ${where} (revise el nombre).`;
    case 'ETIMEDOUT':
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
      return `No se pudo conectar con el servidor de origen ${where}: no responde.`;
    default:
      return `No se pudo abrir la base de datos de origen en ${where}: ${String(e.message ?? err).split('\n')[0]}`;
  }
}

/**
 * Reads a SIGAF 1.x MySQL/MariaDB database: by column name (missing optional columns are
 * reported by the caller, unknown ones ignored), in id order, a batch at a time (keyset
 * pagination), dates as the text the server holds (America/Santiago wall-clock, zero dates intact).
 */
export class LegacySource {
  private constructor(private readonly conn: mysql.Connection) {}

  /** Connects; a failure is a LegacyImportRefused with one Spanish line saying what is wrong. */
  static async open(url: string): Promise<LegacySource> {
    let conn: mysql.Connection;
    try {
      conn = await mysql.createConnection({
        uri: url,
        dateStrings: true,
        charset: 'utf8mb4',
        supportBigNumbers: true,
        bigNumberStrings: false,
        connectTimeout: 15_000,
      });
    } catch (err) {
      throw new LegacyImportRefused(connectionMessage(url, err));
    }
    // Read as stored: no strict mode rejecting zero dates, no time-zone conversion.
    await conn.query(`SET SESSION sql_mode = ''`);
    return new LegacySource(conn);
  }

  /** Connects and checks that every table SIGAF 1.x always had is there; closes the connection on failure. */
  static async openChecked(url: string): Promise<LegacySource> {
    const source = await LegacySource.open(url);
    try {
      const present = await source.tables();
      const missing = REQUIRED_TABLES.filter((t) => !present.has(t));
      if (missing.length) {
        throw new LegacyImportRefused(
          `A la base de datos de origen le faltan tablas que SIGAF 1.x siempre tuvo: ${missing.join(', ')}. ¿Es la base correcta?`,
        );
      }
      return source;
    } catch (err) {
      await source.close().catch(() => undefined);
      throw err;
    }
  }

  async tables(): Promise<Set<string>> {
    const [rows] = await this.conn.query<mysql.RowDataPacket[]>(
      'SELECT table_name AS t FROM information_schema.tables WHERE table_schema = DATABASE()',
    );
    return new Set(rows.map((r) => String(r.t)));
  }

  async columns(table: string): Promise<Set<string>> {
    const [rows] = await this.conn.query<mysql.RowDataPacket[]>(
      'SELECT column_name AS c FROM information_schema.columns WHERE table_schema = DATABASE() AND table_name = ?',
      [table],
    );
    return new Set(rows.map((r) => String(r.c)));
  }

  async count(table: string): Promise<number> {
    const [rows] = await this.conn.query<mysql.RowDataPacket[]>(
      `SELECT COUNT(*) AS n FROM \`${table}\``,
    );
    return Number(rows[0]!.n);
  }

  /** Yields the table's rows in id order, `size` at a time; only `wanted` columns that exist. */
  async *batches(table: string, wanted: string[], size: number): AsyncGenerator<LegacyRow[]> {
    const present = await this.columns(table);
    const cols = wanted.filter((c) => present.has(c));
    const list = cols.map((c) => `\`${c}\``).join(', ');
    let last = -1;
    for (;;) {
      const [rows] = await this.conn.query<mysql.RowDataPacket[]>(
        `SELECT ${list} FROM \`${table}\` WHERE id > ? ORDER BY id LIMIT ?`,
        [last, size],
      );
      if (!rows.length) return;
      last = Number(rows[rows.length - 1]!.id);
      yield rows as LegacyRow[];
      if (rows.length < size) return;
    }
  }

  private closed = false;

  /** Ends the connection (once; later calls do nothing). */
  async close() {
    if (this.closed) return;
    this.closed = true;
    await this.conn.end();
  }
}
