import type { ListQuery, PageMeta } from '@sigaf/contract';
import { sql, type RawBuilder, type SelectQueryBuilder } from 'kysely';

export const DEFAULT_PER_PAGE = 10;
/** Without `page`, a list answers everything up to this many rows (the original client reads whole lists). */
export const UNPAGED_LIMIT = 5000;

export interface Page<T> {
  rows: T[];
  meta?: PageMeta;
}

/**
 * Runs a list query with server-side pagination: the page of rows and the total, in one round
 * trip (`count(*) over ()`). Without `page` in the query, the whole list (bounded) is returned.
 */
export async function paginate<DB, TB extends keyof DB, O>(
  query: SelectQueryBuilder<DB, TB, O>,
  q: Pick<ListQuery, 'page' | 'perPage'>,
): Promise<Page<O>> {
  if (!q.page) {
    return { rows: await query.limit(UNPAGED_LIMIT).execute() };
  }
  const perPage = q.perPage ?? DEFAULT_PER_PAGE;
  const rows = (await query
    .select(sql<number>`count(*) over ()`.as('__total'))
    .limit(perPage)
    .offset((q.page - 1) * perPage)
    .execute()) as (O & { __total: number })[];
  let total = rows.length ? Number(rows[0]!.__total) : 0;
  if (!rows.length && q.page > 1) {
    const countRow = (await query
      .clearSelect()
      .clearOrderBy()
      .select(sql<number>`count(*)`.as('n'))
      .executeTakeFirst()) as { n: number } | undefined;
    total = Number(countRow?.n ?? 0);
  }
  for (const r of rows) delete (r as { __total?: number }).__total;
  return { rows, meta: pageMeta(q.page, perPage, total) };
}

/** Where a page stands: its number and size, how many rows there are, the last page (at least 1). */
export function pageMeta(page: number, perPage: number, total: number): PageMeta {
  return { page, perPage, total, lastPage: Math.max(1, Math.ceil(total / perPage)) };
}

/**
 * The column of a whitelisted sort key. An unknown key, and a name every object inherits
 * (`__proto__`, `constructor`, `toString`, `valueOf`…), is the default: only own keys count.
 */
export function sortColumn<T extends Record<string, string>>(
  sorts: T,
  key: string | undefined,
  fallback: keyof T,
): T[keyof T] {
  return key !== undefined && Object.hasOwn(sorts, key) ? sorts[key as keyof T] : sorts[fallback];
}

/** Whether `key` is one of the whitelist's own keys. */
export const isSortKey = (sorts: object, key: string | undefined): key is string =>
  key !== undefined && Object.hasOwn(sorts, key);

/** Escapes LIKE wildcards in user search text. */
export function likePattern(search: string): string {
  return `%${search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** Accented letters and what they fold to in name searches (migration 0016 folds students' names with the same two). */
const ACCENTED = 'áàäâéèëêíìïîóòöôúùüûñçÁÀÄÂÉÈËÊÍÌÏÎÓÒÖÔÚÙÜÛÑÇ';
const PLAIN = 'aaaaeeeeiiiioooouuuuncaaaaeeeeiiiioooouuuunc';

/**
 * The one matcher of every person search in the product (students, enrolments, staff, follow-up,
 * tickets, reports): the name matches the text without regard to case or accents ("munoz" finds
 * "Muñoz", "martinez" finds "Martínez"), the RUT matches the text's digits whatever the dots and
 * dash, and each of `others` (e-mail, for instance) contains the text, case-insensitively. `name` is
 * the SQL of the full name; `rut` the SQL of the RUT column. Returns the alternatives, to be OR-ed.
 */
function personMatch(
  name: RawBuilder<unknown>,
  rut: RawBuilder<unknown>,
  search: string,
  others: RawBuilder<unknown>[] = [],
  folded = false,
): RawBuilder<unknown>[] {
  const text = search.trim();
  const plain = likePattern(
    text
      .normalize('NFD')
      .replace(/[\u0300-\u036f]/g, '')
      .toLowerCase(),
  );
  const compact = text.replace(/[.\s-]/g, '');
  return [
    folded
      ? sql`${name} like ${plain}`
      : sql`translate(lower(${name}), ${ACCENTED}, ${PLAIN}) like ${plain}`,
    ...(/^[0-9kK]+$/.test(compact)
      ? [sql`replace(replace(${rut}, '.', ''), '-', '') ilike ${likePattern(compact)}`]
      : []),
    ...others.map((column) => sql`${column} ilike ${likePattern(text)}`),
  ];
}

/** `personMatch` as one SQL condition. */
export function personSearch(
  name: RawBuilder<unknown>,
  rut: RawBuilder<unknown>,
  search: string,
  others: RawBuilder<unknown>[] = [],
): RawBuilder<boolean> {
  return sql<boolean>`(${sql.join(personMatch(name, rut, search, others), sql` or `)})`;
}

/**
 * `personSearch` on a name already folded (lower case, accents replaced as above), such as
 * registered_users.search_name (migration 0016): the same matches, without folding every row.
 */
export function foldedPersonSearch(
  folded: RawBuilder<unknown>,
  rut: RawBuilder<unknown>,
  search: string,
  others: RawBuilder<unknown>[] = [],
): RawBuilder<boolean> {
  return sql<boolean>`(${sql.join(personMatch(folded, rut, search, others, true), sql` or `)})`;
}

/** Runs a query per chunk of `items` (so no statement nears the parameter limit) and joins the results in order. */
export async function inChunks<T, R>(
  items: T[],
  size: number,
  run: (chunk: T[]) => Promise<R[]>,
): Promise<R[]> {
  const out: R[] = [];
  for (let i = 0; i < items.length; i += size) out.push(...(await run(items.slice(i, i + size))));
  return out;
}
