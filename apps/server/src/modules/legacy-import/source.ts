import mysql from 'mysql2/promise';

export type LegacyRow = Record<string, unknown>;

/**
 * Reads a SIGAF 1.x MySQL/MariaDB database: by column name (missing optional columns are
 * reported by the caller, unknown ones ignored), in id order, a batch at a time (keyset
 * pagination), dates as the text the server holds (America/Santiago wall-clock, zero dates intact).
 */
export class LegacySource {
  private constructor(private readonly conn: mysql.Connection) {}

  static async open(url: string): Promise<LegacySource> {
    const conn = await mysql.createConnection({ uri: url, dateStrings: true, charset: 'utf8mb4', supportBigNumbers: true, bigNumberStrings: false });
    // Read as stored: no strict mode rejecting zero dates, no time-zone conversion.
    await conn.query(`SET SESSION sql_mode = ''`);
    return new LegacySource(conn);
  }

  async tables(): Promise<Set<string>> {
    const [rows] = await this.conn.query<mysql.RowDataPacket[]>('SELECT table_name AS t FROM information_schema.tables WHERE table_schema = DATABASE()');
    return new Set(rows.map((r) => String(r.t)));
  }

  async columns(table: string): Promise<Set<string>> {
    const [rows] = await this.conn.query<mysql.RowDataPacket[]>(
      'SELECT column_name AS c FROM information_schema.columns WHERE table_schema = DATABASE() AND table_name = ?', [table]);
    return new Set(rows.map((r) => String(r.c)));
  }

  async count(table: string): Promise<number> {
    const [rows] = await this.conn.query<mysql.RowDataPacket[]>(`SELECT COUNT(*) AS n FROM \`${table}\``);
    return Number(rows[0]!.n);
  }

  /** Yields the table's rows in id order, `size` at a time; only `wanted` columns that exist. */
  async *batches(table: string, wanted: string[], size: number): AsyncGenerator<LegacyRow[]> {
    const present = await this.columns(table);
    const cols = wanted.filter((c) => present.has(c));
    const list = cols.map((c) => `\`${c}\``).join(', ');
    let last = -1;
    for (;;) {
      const [rows] = await this.conn.query<mysql.RowDataPacket[]>(`SELECT ${list} FROM \`${table}\` WHERE id > ? ORDER BY id LIMIT ?`, [last, size]);
      if (!rows.length) return;
      last = Number(rows[rows.length - 1]!.id);
      yield rows as LegacyRow[];
      if (rows.length < size) return;
    }
  }

  close() {
    return this.conn.end();
  }
}
