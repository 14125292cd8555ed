import { Box, Stack, Typography } from '@mui/material';
import type { GridColDef, GridRenderCellParams, GridValidRowModel } from '@mui/x-data-grid';

/** A cell's text as its column shows it: the value (valueGetter) formatted (valueFormatter). */
function cellText<R extends GridValidRowModel>(col: GridColDef<R>, row: R): string | null {
  const raw = (row as Record<string, unknown>)[col.field];
  const value = col.valueGetter ? col.valueGetter(raw as never, row, col, undefined as never) : raw;
  const shown = col.valueFormatter
    ? col.valueFormatter(value as never, row, col, undefined as never)
    : value;
  if (shown === null || shown === undefined || shown === '' || typeof shown === 'object')
    return null;
  return String(shown);
}

/**
 * `col` with, under its own cell, the values of the columns the grid left out to fit its width
 * ("Estado: Abierto · Curso: …"): on a phone a row still says what its hidden columns hold.
 */
export function withFittedUnder<R extends GridValidRowModel>(
  col: GridColDef<R>,
  fitted: readonly GridColDef<R>[],
): GridColDef<R> {
  if (!fitted.length) return col;
  return {
    ...col,
    renderCell: (params: GridRenderCellParams<R>) => {
      const own = col.renderCell
        ? col.renderCell(params)
        : String(params.formattedValue ?? params.value ?? '');
      const under = fitted
        .map((c) => {
          const text = cellText(c, params.row);
          return text === null ? null : `${c.headerName ?? c.field}: ${text}`;
        })
        .filter(Boolean)
        .join(' · ');
      if (!under) return own;
      return (
        <Stack sx={{ justifyContent: 'center', height: '100%', lineHeight: 1.3, minWidth: 0 }}>
          <Box component="span" sx={{ overflow: 'hidden', textOverflow: 'ellipsis' }}>
            {own}
          </Box>
          <Typography
            variant="caption"
            sx={{ color: 'text.secondary' }}
            noWrap
            title={under}
            data-testid="fitted-under"
          >
            {under}
          </Typography>
        </Stack>
      );
    },
  };
}
