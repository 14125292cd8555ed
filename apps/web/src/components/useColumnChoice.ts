import type { GridColumnVisibilityModel } from '@mui/x-data-grid';
import { useState } from 'react';
import { readPref, writePref } from '../lib/storage';

/**
 * Which columns of a table this user shows (the grid's "Administrar columnas" menu), remembered
 * in this browser. `hidden` are the columns left out until chosen, so that the main ones fit a
 * 1366 px screen.
 */
export function useColumnChoice(table: string, hidden: readonly string[]) {
  const key = `sigaf.columns.${table}`;
  const [model, setModel] = useState<GridColumnVisibilityModel>(() => {
    try {
      const saved = JSON.parse(readPref(key) ?? 'null') as GridColumnVisibilityModel | null;
      if (saved && typeof saved === 'object') return saved;
    } catch {
      /* a broken preference is the default */
    }
    return Object.fromEntries(hidden.map((c) => [c, false]));
  });
  const change = (next: GridColumnVisibilityModel) => {
    setModel(next);
    writePref(key, JSON.stringify(next));
  };
  return { columnVisibilityModel: model, onColumnVisibilityModelChange: change };
}
