import {
  DataGrid,
  type DataGridProps,
  type GridPaginationModel,
  type GridSortModel,
  type GridValidRowModel,
} from '@mui/x-data-grid';
import { useCallback, useState } from 'react';

export interface ServerPage {
  page: number;
  perPage: number;
  sort?: string;
  order?: 'asc' | 'desc';
}

/** Pagination and sort state of a server-side table, as the list endpoints take it. */
export function useServerPage(pageSize = 10) {
  const [pagination, setPagination] = useState<GridPaginationModel>({ page: 0, pageSize });
  const [sortModel, setSortModel] = useState<GridSortModel>([]);
  const params: ServerPage = {
    page: pagination.page + 1,
    perPage: pagination.pageSize,
    sort: sortModel[0]?.field,
    order: sortModel[0]?.sort ?? undefined,
  };
  const grid = {
    paginationModel: pagination,
    onPaginationModelChange: setPagination,
    sortModel,
    onSortModelChange: setSortModel,
  };
  const firstPage = useCallback(() => setPagination((p) => ({ ...p, page: 0 })), []);
  return { params, grid, firstPage };
}

type Props<R extends GridValidRowModel> = Omit<DataGridProps<R>, 'rowCount'> & {
  total: number;
  label: string;
};

/** A DataGrid whose pages, sorting and filtering happen on the server. */
export function ServerDataGrid<R extends GridValidRowModel>({ total, label, ...props }: Props<R>) {
  return (
    <DataGrid<R>
      aria-label={label}
      rowCount={total}
      paginationMode="server"
      sortingMode="server"
      filterMode="server"
      pageSizeOptions={[10, 25, 50, 100]}
      disableColumnFilter
      autoHeight
      {...props}
    />
  );
}
