/** What every step of an import shares: the id maps built so far, the report, and the row helpers (dates, lengths, references, batches). */
import type { CatalogueTableName } from '../../db/schema.js';
import type { LegacyImportRepository, Column } from './repository.js';
import type { LegacySource, LegacyRow } from './source.js';
import type { AnomalyKind, ImportOptions, ImportReport } from './types.js';

export const CATALOGUES: CatalogueTableName[] = [
  'roles',
  'profiles',
  'classrooms',
  'final_statuses',
  'status_tickets',
  'priority_tickets',
  'motive_tickets',
  'status_detail_tickets',
  'source_tickets',
  'type_tickets',
  'sections',
];

export const ZERO_DATE = /^0000-00-00/;
export const WALLCLOCK = /^\d{4}-\d{2}-\d{2}( \d{2}:\d{2}(:\d{2})?)?$/;

export const num = (v: unknown): number | null =>
  v === null || v === undefined || v === '' ? null : Number(v);
export const str = (v: unknown): string | null =>
  v === null || v === undefined ? null : String(v);

export abstract class RunBase {
  protected cat = new Map<string, Map<number, number>>();
  protected users = new Map<number, number>();
  protected fallbackUser = 0;
  protected students = new Map<number, number>();
  protected categoryIds = new Set<number>();
  protected courses = new Set<number>();
  protected activities = new Set<number>();
  protected enrolments = new Map<number, { id: number; course: number }>();
  protected tickets = new Set<number>();
  /** The import's own time (Santiago wall-clock), for rows without any date. */
  protected readonly now = nowWallclock();

  constructor(
    protected readonly source: LegacySource,
    protected readonly repo: LegacyImportRepository,
    protected readonly report: ImportReport,
    protected readonly opts: ImportOptions,
    protected readonly size: number,
    protected readonly present: Set<string>,
  ) {}

  protected anomaly(
    table: string,
    ids: number[],
    kind: AnomalyKind,
    rule: string,
    detail?: string,
  ) {
    this.report.anomalies.push({
      table,
      ids,
      kind,
      rule,
      ...(detail === undefined ? {} : { detail }),
    });
  }

  /** A Santiago wall-clock text, or null for a null/zero/unreadable date (reported unless null). */
  protected when(table: string, id: number, column: string, v: unknown): string | null {
    if (v === null || v === undefined) return null;
    const s = String(v);
    if (ZERO_DATE.test(s)) {
      this.anomaly(table, [id], 'zero_date', 'se lee como sin fecha', `${column}=${s}`);
      return null;
    }
    if (!WALLCLOCK.test(s)) {
      this.anomaly(table, [id], 'unreadable_date', 'se lee como sin fecha', `${column}=${s}`);
      return null;
    }
    return s;
  }

  /** created_at/updated_at: a missing created_at takes updated_at, else the import's time. */
  protected stamps(table: string, r: LegacyRow) {
    const id = Number(r.id);
    const updated = this.when(table, id, 'updated_at', r.updated_at);
    const created = this.when(table, id, 'created_at', r.created_at) ?? updated;
    return { created_at: created ?? this.now, updated_at: updated ?? created ?? this.now };
  }

  protected fit(table: string, id: number, column: string, v: unknown, max: number): string | null {
    const s = str(v);
    if (s === null || s.length <= max) return s;
    this.anomaly(table, [id], 'too_long', `cortado a ${max} caracteres`, `${column}: ${s}`);
    return s.slice(0, max);
  }

  protected async *rows(table: string, columns: string[]): AsyncGenerator<LegacyRow[]> {
    const read = { read: 0, imported: 0 };
    this.report.tables[table] = read;
    if (!this.present.has(table)) {
      this.report.notes.push(`La tabla ${table} no existe en el origen: nada que importar.`);
      return;
    }
    const total = await this.source.count(table);
    const t0 = Date.now();
    for await (const batch of this.source.batches(table, columns, this.size)) {
      read.read += batch.length;
      yield batch;
      const secs = Math.max((Date.now() - t0) / 1000, 0.001);
      this.opts.onProgress?.({
        table,
        done: read.read,
        total,
        rowsPerSecond: Math.round(read.read / secs),
      });
    }
  }

  protected async write(
    table: string,
    target: string,
    columns: Column[],
    rows: Record<string, unknown>[],
  ) {
    await this.repo.insert(target, columns, rows);
    this.report.tables[table]!.imported += rows.length;
  }

  protected ref(table: string, catalogue: string, id: number, v: unknown): number {
    const map = this.cat.get(catalogue)!;
    const hit = map.get(Number(v));
    if (hit !== undefined) return hit;
    const fallback = map.get(1) ?? [...map.values()][0]!;
    this.anomaly(
      table,
      [id, Number(v)],
      'missing_catalogue_value',
      `${catalogue} ${String(v)} no existe: se usa el valor de su id 1`,
    );
    return fallback;
  }

  protected user(table: string, id: number, column: string, v: unknown, required: true): number;
  protected user(
    table: string,
    id: number,
    column: string,
    v: unknown,
    required: false,
  ): number | null;
  protected user(
    table: string,
    id: number,
    column: string,
    v: unknown,
    required: boolean,
  ): number | null {
    if (v === null || v === undefined) return required ? this.fallbackUser : null;
    const hit = this.users.get(Number(v));
    if (hit !== undefined) return hit;
    this.anomaly(
      table,
      [id, Number(v)],
      'missing_user',
      required ? 'queda a nombre del administrador que importa' : 'queda sin asignar',
      `${column}=${String(v)}`,
    );
    return required ? this.fallbackUser : null;
  }
}

function nowWallclock(): string {
  const parts = new Intl.DateTimeFormat('sv-SE', {
    timeZone: 'America/Santiago',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    hourCycle: 'h23',
  }).format(new Date());
  return parts.replace('T', ' ');
}
