import type { GridColDef, GridColumnVisibilityModel, GridValidRowModel } from '@mui/x-data-grid';

/** The width the grid's checkbox column takes (GRID_CHECKBOX_SELECTION_COL_DEF). */
export const CHECKBOX_WIDTH = 50;

/** The narrowest a column may be drawn: its minWidth when it stretches (flex), its width otherwise (the grid's defaults). */
export function columnNeed(col: Pick<GridColDef, 'flex' | 'width' | 'minWidth'>): number {
  return col.flex ? (col.minWidth ?? 50) : (col.width ?? 100);
}

export interface FitRules {
  /** Columns hidden until the user shows them from the column menu. */
  hidden?: readonly string[];
  /** Columns hidden, first to last, while the shown ones do not fit the grid's width. */
  hideFirst?: readonly string[];
}

/**
 * Which columns a grid shows at a width (px inside its border): every column but `hidden`, less
 * `hideFirst` in order while their narrowest widths (plus `extra`, e.g. the checkbox column) add
 * up to more than the width. A column the user chose (`chosen`) stays as chosen.
 */
export function fitColumns<R extends GridValidRowModel>(
  columns: readonly GridColDef<R>[],
  width: number,
  rules: FitRules,
  chosen: GridColumnVisibilityModel = {},
  extra = 0,
): GridColumnVisibilityModel {
  const model: GridColumnVisibilityModel = {};
  for (const field of rules.hidden ?? []) model[field] = false;
  Object.assign(model, chosen);
  const shown = (field: string) => model[field] !== false;
  const need = () =>
    extra + columns.reduce((sum, c) => sum + (shown(c.field) ? columnNeed(c) : 0), 0);
  for (const field of rules.hideFirst ?? []) {
    if (need() <= width) break;
    if (field in chosen || !columns.some((c) => c.field === field)) continue;
    model[field] = false;
  }
  return model;
}

/**
 * The user's choices after the column menu turned the shown model (`shown`) into `next`: the
 * earlier choices plus every field whose visibility changed.
 */
export function choicesOf(
  next: GridColumnVisibilityModel,
  shown: GridColumnVisibilityModel,
  fields: readonly string[],
  chosen: GridColumnVisibilityModel = {},
): GridColumnVisibilityModel {
  const result: GridColumnVisibilityModel = { ...chosen };
  for (const field of fields) {
    const wanted = next[field] !== false;
    if (wanted !== (shown[field] !== false)) result[field] = wanted;
  }
  return result;
}
