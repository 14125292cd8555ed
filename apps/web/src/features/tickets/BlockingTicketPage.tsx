import LockOpenIcon from '@mui/icons-material/LockOpen';
import LockPersonIcon from '@mui/icons-material/LockPerson';
import RefreshIcon from '@mui/icons-material/Refresh';
import { chileDateTime } from '@sigaf/contract';
import { Alert, Box, Button, IconButton, Tooltip, Typography } from '@mui/material';
import { GridActionsCellItem, type GridColDef } from '@mui/x-data-grid';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { PageCard } from '../../components/PageCard';
import { ServerDataGrid, useServerPage } from '../../components/ServerDataGrid';
import { useFitColumns } from '../../components/useFitColumns';
import { useNotify } from '../../components/Snackbar';
import { ApiError } from '../../lib/api';
import { releaseLock, releaseLocks, useLocks, type TicketLock } from './api';
import { stamp } from './format';
import { gridHeaderSx, selectionProps, useGridLocale } from './TicketGrid';

type Row = TicketLock & { n: number };

/** Desbloqueo ticket (docs/development/screens.md#unlock): the edit locks in force; unlock one or many. */
export default function BlockingTicketPage() {
  const { t } = useTranslation();
  const notify = useNotify();
  const queryClient = useQueryClient();
  const gridLocale = useGridLocale();
  const { params, grid } = useServerPage(10);
  const [selected, setSelected] = useState<number[]>([]);
  const [pending, setPending] = useState<Row[] | null>(null);
  const { data, isFetching, isError, error } = useLocks(params.page, params.perPage);
  const rows: Row[] = useMemo(
    () =>
      (data?.rows ?? []).map((l, i) => ({ ...l, n: (params.page - 1) * params.perPage + i + 1 })),
    [data, params.page, params.perPage],
  );
  // A selection is of the rows in view.
  useEffect(() => setSelected([]), [params.page, params.perPage]);
  const refresh = () => queryClient.invalidateQueries({ queryKey: ['tickets'] });

  const columns = useMemo<GridColDef<Row>[]>(
    () => [
      { field: 'n', headerName: t('tickets.blocking.number'), width: 70 },
      {
        field: 'code',
        headerName: t('tickets.columns.code'),
        flex: 1,
        minWidth: 150,
        valueGetter: (_v, r) => r.ticket.ticketCode,
      },
      {
        field: 'user',
        headerName: t('tickets.columns.operator'),
        flex: 1,
        minWidth: 180,
        valueGetter: (_v, r) => r.user.name,
      },
      {
        field: 'createdAt',
        headerName: t('tickets.blocking.lockedAt'),
        width: 170,
        valueGetter: (_v, r) => stamp(r),
      },
      {
        field: 'expiresAt',
        headerName: t('tickets.blocking.expires'),
        width: 150,
        valueGetter: (_v, r) => chileDateTime(r.expiresAt),
      },
      {
        field: 'actions',
        type: 'actions',
        headerName: t('tickets.columns.actions'),
        width: 100,
        getActions: ({ row }) => [
          <GridActionsCellItem
            key="unlock"
            icon={<LockOpenIcon />}
            label={t('tickets.blocking.unlockNamed', { code: row.ticket.ticketCode })}
            onClick={() => setPending([row])}
          />,
        ],
      },
    ],
    [t],
  );
  const fit = useFitColumns(columns, {
    remember: 'locks',
    checkbox: true,
    hideFirst: ['expiresAt', 'n', 'createdAt', 'user'],
  });

  const unlock = async () => {
    if (!pending) return;
    try {
      const res =
        pending.length === 1
          ? await releaseLock(pending[0]!.id)
          : await releaseLocks(pending.map((r) => r.id));
      notify(res.message || t('common.success'));
      setSelected((s) => s.filter((id) => !pending.some((r) => r.id === id)));
    } catch (err) {
      notify(err instanceof ApiError ? err.message : t('common.error'), 'error');
    } finally {
      setPending(null);
      await refresh();
    }
  };

  const message =
    pending && pending.length === 1
      ? t('tickets.blocking.confirmOne', {
          code: pending[0]!.ticket.ticketCode,
          name: pending[0]!.user.name,
        })
      : t('tickets.blocking.confirmMany', { count: pending?.length ?? 0 });

  return (
    <PageCard
      title={t('nav.blockingTicket')}
      icon={<LockPersonIcon />}
      actions={
        <Box sx={{ display: 'flex', gap: 1, alignItems: 'center' }}>
          <Button
            variant="contained"
            startIcon={<LockOpenIcon />}
            disabled={selected.length === 0}
            onClick={() => setPending(rows.filter((r) => selected.includes(r.id)))}
          >
            {t('tickets.blocking.unlockSelected', { count: selected.length })}
          </Button>
          <Tooltip title={t('tickets.toolbar.refresh')}>
            <IconButton aria-label={t('tickets.toolbar.refresh')} onClick={() => void refresh()}>
              <RefreshIcon />
            </IconButton>
          </Tooltip>
        </Box>
      }
    >
      <Typography variant="body2" sx={{ color: 'text.secondary', mb: 1 }}>
        {t('tickets.blocking.hint')}
      </Typography>
      {isError && (
        <Alert severity="error">
          {error instanceof ApiError ? error.message : t('common.loadError')}
        </Alert>
      )}
      <ServerDataGrid
        label={t('nav.blockingTicket')}
        rows={rows}
        total={data?.total ?? 0}
        {...fit}
        loading={isFetching}
        {...grid}
        pageSizeOptions={[10, 25, 50]}
        {...selectionProps(selected, setSelected)}
        disableColumnSorting
        localeText={{ ...gridLocale, noRowsLabel: t('tickets.blocking.empty') }}
        sx={gridHeaderSx}
      />
      <ConfirmDialog
        open={Boolean(pending)}
        message={message}
        onCancel={() => setPending(null)}
        onConfirm={unlock}
      />
    </PageCard>
  );
}
