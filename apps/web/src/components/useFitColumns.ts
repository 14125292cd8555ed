import type { GridColDef, GridColumnVisibilityModel, GridValidRowModel } from '@mui/x-data-grid';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { readPref, writePref } from '../lib/storage';
import { CHECKBOX_WIDTH, choicesOf, fitColumns, type FitRules } from './fitColumns';
import { withFittedUnder } from './FittedUnder';

export interface FitOptions extends FitRules {
  /** Remembers the user's column choices in this browser under this name (`sigaf.columns.<name>`). */
  remember?: string;
  /** The grid has a checkbox column. */
  checkbox?: boolean;
  /** The column whose cell shows, under its own value, what the columns left out to fit hold. */
  under?: string;
}

function readChoices(remember?: string): GridColumnVisibilityModel {
  if (!remember) return {};
  try {
    const saved = JSON.parse(
      readPref(`sigaf.columns.${remember}`) ?? 'null',
    ) as GridColumnVisibilityModel | null;
    if (saved && typeof saved === 'object') return saved;
  } catch {
    /* a broken preference is no preference */
  }
  return {};
}

/**
 * The columns a grid shows at its current width, so that a table fits its frame (a 1366 px screen
 * with the menu open, a phone) without scrolling sideways: the less important columns
 * (`hideFirst`) are left out while the others do not fit, and come back as the grid widens. The
 * column menu ("Administrar columnas") still shows or hides any column; that choice is kept
 * (and remembered with `remember`).
 *
 * Spread the result into the DataGrid in place of its `columns`: `ref` measures the grid, two
 * drive its columnVisibilityModel, and `columns` is the grid's with `under`'s cell telling what the
 * columns left out to fit hold (a phone still shows a ticket's state under the student's name).
 */
export function useFitColumns<R extends GridValidRowModel>(
  columns: readonly GridColDef<R>[],
  options: FitOptions,
) {
  const [width, setWidth] = useState<number | null>(null);
  // The choices belong to one table: a screen that shows another table in the same place reads that one's.
  const [saved, setSaved] = useState(() => ({
    table: options.remember,
    chosen: readChoices(options.remember),
  }));
  const chosen = saved.table === options.remember ? saved.chosen : readChoices(options.remember);
  const observer = useRef<ResizeObserver | null>(null);
  const ref = useCallback((el: HTMLDivElement | null) => {
    observer.current?.disconnect();
    observer.current = null;
    if (!el) return;
    const measure = () => setWidth(el.clientWidth);
    measure();
    if (typeof ResizeObserver !== 'undefined') {
      observer.current = new ResizeObserver(measure);
      observer.current.observe(el);
    }
  }, []);
  useEffect(() => () => observer.current?.disconnect(), []);

  const computed = fitColumns(
    columns,
    width ?? Number.POSITIVE_INFINITY,
    options,
    chosen,
    options.checkbox ? CHECKBOX_WIDTH : 0,
  );
  // The same model object while nothing changes, so that the grid is not told of a new one at every render.
  const key = JSON.stringify(computed);
  const columnVisibilityModel = useMemo(() => computed, [key]); // eslint-disable-line react-hooks/exhaustive-deps -- keyed by content
  const onColumnVisibilityModelChange = (next: GridColumnVisibilityModel) => {
    const choices = choicesOf(
      next,
      columnVisibilityModel,
      columns.map((c) => c.field),
      chosen,
    );
    setSaved({ table: options.remember, chosen: choices });
    if (options.remember) writePref(`sigaf.columns.${options.remember}`, JSON.stringify(choices));
  };
  const fittedKey = (options.hideFirst ?? [])
    .filter((f) => columnVisibilityModel[f] === false && !(f in chosen))
    .join(',');
  const withUnder = useMemo(() => {
    if (!options.under) return columns;
    // The most important first: the last to have given way.
    const out = fittedKey
      .split(',')
      .reverse()
      .flatMap((f) => columns.filter((c) => c.field === f));
    return columns.map((c) => (c.field === options.under ? withFittedUnder(c, out) : c));
  }, [columns, options.under, fittedKey]);
  return { ref, columnVisibilityModel, onColumnVisibilityModelChange, columns: withUnder };
}
