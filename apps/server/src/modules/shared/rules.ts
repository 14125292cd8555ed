import { FORM_MSG } from '@sigaf/contract';
import { invalid } from '../../http/errors.js';

/** A select value must point at an existing row: a 422 on that field otherwise. */
export async function requireOption(
  field: string,
  id: number | null | undefined,
  exists: (id: number) => Promise<boolean>,
) {
  if (id === undefined || id === null) return;
  if (!(await exists(id))) throw invalid({ [field]: [FORM_MSG.option] });
}

/** Keeps the fields a partial update actually sends. */
export function withoutUndefined<T extends object>(
  o: T,
): { [K in keyof T]?: Exclude<T[K], undefined> } {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as {
    [K in keyof T]?: Exclude<T[K], undefined>;
  };
}
