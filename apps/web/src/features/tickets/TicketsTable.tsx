import FileDownloadIcon from '@mui/icons-material/FileDownload';
import RefreshIcon from '@mui/icons-material/Refresh';
import { isAdminLike, type TicketStatusFilter } from '@sigaf/contract';
import {
  Alert,
  Box,
  Button,
  CircularProgress,
  IconButton,
  Stack,
  Tooltip,
  Typography,
} from '@mui/material';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useRef, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { useServerPage } from '../../components/ServerDataGrid';
import { useNotify } from '../../components/Snackbar';
import { ApiError } from '../../lib/api';
import { useSession } from '../../lib/session';
import {
  deleteTicket,
  exportTickets,
  useTicketList,
  type Ticket,
  type TicketFilterValues,
} from './api';
import { BulkActions } from './BulkActions';
import { emptyFilters, PresetsMenu, TicketFiltersBar } from './TicketFilters';
import { TicketGrid } from './TicketGrid';

interface Props {
  /** One course's tickets, or every course's (administration). */
  courseId?: number;
  defaultStatus: TicketStatusFilter;
  perPage: number;
  /** Extra toolbar buttons (Individual, Masivo). */
  actions?: ReactNode;
  label: string;
  onOpen: (ticketId: number) => void;
  /** Filters to start with (a link from a dashboard chart); the user can change them. */
  initialFilters?: Partial<TicketFilterValues>;
  /** Told of every change of the filters (the page keeps them in its address). */
  onFiltersChange?: (filters: TicketFilterValues) => void;
}

/** Filters, presets, export, the server-side grid and bulk actions: the body of Ticket and Administración ticket. */
export function TicketsTable({
  courseId,
  defaultStatus,
  perPage,
  actions,
  label,
  onOpen: openTicket,
  initialFilters,
  onFiltersChange,
}: Props) {
  const { t } = useTranslation();
  const notify = useNotify();
  const queryClient = useQueryClient();
  const { role } = useSession();
  const [filters, setFilters] = useState<TicketFilterValues>(() => ({
    ...emptyFilters(defaultStatus),
    ...initialFilters,
  }));
  const { params, grid, firstPage } = useServerPage(perPage);
  const [selection, setSelection] = useState<number[]>([]);
  const [deleting, setDeleting] = useState<Ticket | null>(null);
  const [exporting, setExporting] = useState(false);
  /** Codes of the rows seen, to name selected tickets that are on another page. */
  const codes = useRef(new Map<number, string>());

  const filtersChanged = useRef(onFiltersChange);
  filtersChanged.current = onFiltersChange;
  const changeFilters = useCallback(
    (f: TicketFilterValues) => {
      setFilters(f);
      firstPage();
      setSelection([]);
      filtersChanged.current?.(f);
    },
    [firstPage],
  );
  useEffect(() => {
    firstPage();
    setSelection([]);
  }, [courseId, firstPage]);

  const list = useTicketList({ courseId, filters, ...params });
  const rows = list.data?.rows ?? [];
  for (const r of rows) codes.current.set(r.id, r.ticketCode);
  const refresh = () => queryClient.invalidateQueries({ queryKey: ['tickets'] });
  const onOpen = useCallback((row: Ticket) => openTicket(row.id), [openTicket]);
  const onDelete = useCallback((row: Ticket) => setDeleting(row), []);

  const doExport = async () => {
    setExporting(true);
    try {
      await exportTickets(filters, courseId);
    } catch (err) {
      notify(err instanceof ApiError ? err.message : t('common.error'), 'error');
    } finally {
      setExporting(false);
    }
  };

  const removeOne = async () => {
    if (!deleting) return;
    try {
      notify((await deleteTicket(deleting.id)).message);
      setSelection((s) => s.filter((id) => id !== deleting.id));
      await refresh();
    } catch (err) {
      notify(err instanceof ApiError ? err.message : t('common.error'), 'error', 8000);
    } finally {
      setDeleting(null);
    }
  };

  const total = list.data?.total ?? 0;
  return (
    <Box>
      <Stack
        direction="row"
        spacing={1}
        sx={{ flexWrap: 'wrap', alignItems: 'center', rowGap: 1, mb: 2 }}
      >
        {actions}
        <Box sx={{ flex: 1 }} />
        <PresetsMenu filters={filters} onApply={changeFilters} />
        <Button
          variant="outlined"
          startIcon={exporting ? <CircularProgress size={18} /> : <FileDownloadIcon />}
          onClick={() => void doExport()}
          disabled={exporting || total === 0}
        >
          {t('tickets.toolbar.export')}
        </Button>
      </Stack>
      <TicketFiltersBar value={filters} onChange={changeFilters} defaultStatus={defaultStatus} />
      <Box sx={{ display: 'flex', alignItems: 'center', mt: 2, mb: 1 }}>
        <Typography role="status" sx={{ fontWeight: 600 }}>
          {t('tickets.toolbar.found', { count: total })}
        </Typography>
        <Tooltip title={t('tickets.toolbar.refresh')}>
          <IconButton
            aria-label={t('tickets.toolbar.refresh')}
            onClick={() => void refresh()}
            size="small"
            sx={{ ml: 1 }}
          >
            <RefreshIcon fontSize="small" />
          </IconButton>
        </Tooltip>
      </Box>
      {!isAdminLike(role) && (
        <Alert severity="info" data-testid="own-tickets-only" sx={{ mb: 1 }}>
          {t('tickets.toolbar.ownOnly')}
        </Alert>
      )}
      {list.isError && (
        <Alert severity="error" sx={{ mb: 1 }}>
          {list.error instanceof ApiError ? list.error.message : t('common.loadError')}
        </Alert>
      )}
      <BulkActions
        ids={selection}
        codeOf={(id) => codes.current.get(id) ?? `#${id}`}
        canDelete={isAdminLike(role)}
        onClear={() => setSelection([])}
        onDone={() => {
          setSelection([]);
          void refresh();
        }}
      />
      <TicketGrid
        label={label}
        rows={rows}
        total={total}
        loading={list.isFetching}
        grid={grid}
        selection={selection}
        onSelectionChange={setSelection}
        onOpen={onOpen}
        onDelete={onDelete}
        showCourse={!courseId}
      />
      <ConfirmDialog
        open={Boolean(deleting)}
        message={t('tickets.row.deleteConfirm', { code: deleting?.ticketCode ?? '' })}
        onCancel={() => setDeleting(null)}
        onConfirm={removeOne}
      />
    </Box>
  );
}
