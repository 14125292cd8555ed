import ConfirmationNumberIcon from '@mui/icons-material/ConfirmationNumber';
import FileDownloadIcon from '@mui/icons-material/FileDownload';
import MailIcon from '@mui/icons-material/Mail';
import VisibilityIcon from '@mui/icons-material/Visibility';
import {
  FOLLOW_UP_MAX_DAYS,
  FOLLOW_UP_STATUSES,
  PERMISSIONS,
  type FollowUpCourse,
  type FollowUpStatus,
  type FollowUpStudent,
} from '@sigaf/contract';
import {
  Alert,
  Box,
  Button,
  CircularProgress,
  FormControlLabel,
  InputAdornment,
  LinearProgress,
  MenuItem,
  Stack,
  Switch,
  TextField,
  Tooltip,
  Typography,
} from '@mui/material';
import { GridActionsCellItem, type GridColDef } from '@mui/x-data-grid';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { SearchBox } from '../../components/SearchBox';
import { ServerDataGrid, useServerPage } from '../../components/ServerDataGrid';
import { StateChip } from '../../components/StateChip';
import { useFormat } from '../../lib/format';
import { useNotify } from '../../components/Snackbar';
import { useFitColumns } from '../../components/useFitColumns';
import { ApiError } from '../../lib/api';
import { useSession } from '../../lib/session';
import { CreateMassiveDialog } from '../tickets/CreateTickets';
import { gridHeaderSx, selectionProps, useGridLocale } from '../tickets/TicketGrid';
import { exportFollowUp, useFollowUpStudents, type FollowUpFilterValues } from './api';
import { FollowUpMailDialog } from './FollowUpMailDialog';
import { StatusChip, StudentDetailDrawer, lastAccessText } from './StudentDetail';

/** A whole number within [min, max] typed in a field, or undefined when blank or out of range. */
function parseNumber(text: string, min: number, max: number): number | undefined {
  if (text.trim() === '' || !/^\d+$/.test(text.trim())) return undefined;
  const n = Number(text.trim());
  return n >= min && n <= max ? n : undefined;
}

/** A number filter typed in a field and applied when it is valid. */
function NumberFilter({
  label,
  value,
  max,
  onChange,
  unit,
}: {
  label: string;
  value: number | undefined;
  max: number;
  onChange: (n: number | undefined) => void;
  unit: string;
}) {
  const { t } = useTranslation();
  const [text, setText] = useState(value === undefined ? '' : String(value));
  const bad = text.trim() !== '' && parseNumber(text, 0, max) === undefined;
  return (
    <TextField
      label={label}
      value={text}
      onChange={(e) => {
        setText(e.target.value);
        const n = parseNumber(e.target.value, 0, max);
        if (e.target.value.trim() === '' || n !== undefined) onChange(n);
      }}
      error={bad}
      helperText={bad ? t('followUp.filters.range', { max }) : undefined}
      sx={{ width: 210 }}
      slotProps={{
        inputLabel: { shrink: true },
        htmlInput: { inputMode: 'numeric', maxLength: 4 },
        input: { endAdornment: <InputAdornment position="end">{unit}</InputAdornment> },
      }}
    />
  );
}

/**
 * The student table of a course (optionally one classroom): filters, server-side pages and sort,
 * export, and for ticket workers the selection's actions (open tickets, massive mail).
 */
export function StudentTable({
  course,
  classroomId,
  initialFilters = {},
  onFiltersChange,
}: {
  course: FollowUpCourse;
  classroomId?: number;
  /** The filters it opens with (kept in the address by the page). */
  initialFilters?: Omit<FollowUpFilterValues, 'classroom_id'>;
  onFiltersChange?: (filters: Omit<FollowUpFilterValues, 'classroom_id'>) => void;
}) {
  const { t } = useTranslation();
  const f = useFormat();
  const notify = useNotify();
  const queryClient = useQueryClient();
  const gridLocale = useGridLocale();
  const { role } = useSession();
  const canWork = Boolean(role && PERMISSIONS.ticketWork.includes(role));
  const { params: page, grid, firstPage } = useServerPage(10);
  const [filters, setFilters] =
    useState<Omit<FollowUpFilterValues, 'classroom_id'>>(initialFilters);
  useEffect(() => onFiltersChange?.(filters), [filters]); // eslint-disable-line react-hooks/exhaustive-deps -- on a change of filters only
  const [filterKey, setFilterKey] = useState(0);
  const [selected, setSelected] = useState<number[]>([]);
  const [detail, setDetail] = useState<number | null>(null);
  const [mailing, setMailing] = useState(false);
  const [ticketFor, setTicketFor] = useState<number[] | null>(null);
  const [exporting, setExporting] = useState(false);
  const all: FollowUpFilterValues = {
    ...filters,
    ...(classroomId !== undefined ? { classroom_id: classroomId } : {}),
  };
  const students = useFollowUpStudents(course.id, all, page);

  const change = (patch: Partial<FollowUpFilterValues>) => {
    setFilters((f) => {
      const next = { ...f, ...patch };
      for (const k of Object.keys(next) as Array<keyof typeof next>)
        if (next[k] === undefined || next[k] === '' || next[k] === false) delete next[k];
      return next;
    });
    firstPage();
  };
  const onSearch = useCallback((s: string) => change({ search: s || undefined }), []); // eslint-disable-line react-hooks/exhaustive-deps -- change only sets state

  const columns = useMemo<GridColDef<FollowUpStudent>[]>(
    () => [
      { field: 'rut', headerName: t('followUp.columns.rut'), flex: 0.6, minWidth: 110 },
      {
        field: 'name',
        headerName: t('followUp.columns.name'),
        flex: 1.5,
        minWidth: 170,
        valueGetter: (_v, r) => [r.name, r.lastName, r.motherLastName].filter(Boolean).join(' '),
      },
      {
        field: 'email',
        headerName: t('followUp.columns.email'),
        flex: 1.2,
        minWidth: 170,
        valueGetter: (_v, r) => r.email ?? '',
      },
      {
        field: 'phone',
        headerName: t('followUp.columns.phone'),
        flex: 0.7,
        minWidth: 115,
        sortable: false,
        valueGetter: (_v, r) => r.phone ?? '',
      },
      {
        field: 'classroom',
        headerName: t('followUp.columns.classroom'),
        flex: 0.6,
        minWidth: 100,
        valueGetter: (_v, r) => r.classroom ?? t('followUp.noClassroom'),
      },
      {
        field: 'status',
        headerName: t('followUp.columns.status'),
        flex: 0.8,
        minWidth: 150,
        renderCell: (p) => <StatusChip student={p.row} />,
      },
      {
        field: 'lastAccess',
        headerName: t('followUp.columns.lastAccess'),
        flex: 0.7,
        minWidth: 125,
        valueGetter: (_v, r) => lastAccessText(r, t),
      },
      {
        field: 'progress',
        headerName: t('followUp.columns.progress'),
        flex: 0.7,
        minWidth: 120,
        renderCell: (p) =>
          p.row.progress === null ? (
            <Typography
              variant="body2"
              color="text.secondary"
              sx={{ lineHeight: 'inherit' }}
              title={t('followUp.detail.noProgressWhy')}
            >
              —
            </Typography>
          ) : (
            <Box
              sx={{ width: '100%', display: 'flex', alignItems: 'center', gap: 1 }}
              title={t('followUp.progressOf', { graded: p.row.graded, expected: p.row.expected })}
            >
              <LinearProgress
                variant="determinate"
                value={p.row.progress}
                sx={{ flex: 1, height: 8, borderRadius: 4 }}
                color={p.row.progress < 50 ? 'warning' : 'success'}
              />
              <Typography variant="body2">{f.percent(p.row.progress)}</Typography>
            </Box>
          ),
      },
      {
        field: 'openTickets',
        headerName: t('followUp.columns.openTickets'),
        flex: 0.5,
        minWidth: 110,
        type: 'number',
      },
      {
        field: 'actions',
        type: 'actions',
        headerName: t('common.actions'),
        width: 90,
        getActions: ({ row }) => [
          <GridActionsCellItem
            key="open"
            icon={<VisibilityIcon />}
            label={t('followUp.detail.open', { name: `${row.name} ${row.lastName}` })}
            onClick={() => setDetail(row.id)}
          />,
        ],
      },
    ],
    [t, f],
  );
  // At 1366 px with the menu open the phone, e-mail and classroom give way (they are on the
  // student's card); on a phone the name stays. The column menu shows any of them again.
  const fit = useFitColumns(columns, {
    remember: 'follow-up',
    under: 'name',
    checkbox: canWork,
    hideFirst: [
      'phone',
      'email',
      'classroom',
      'openTickets',
      'lastAccess',
      'progress',
      'rut',
      'status',
    ],
  });

  const doExport = async () => {
    setExporting(true);
    try {
      await exportFollowUp(course.id, all, { sort: page.sort, order: page.order });
    } catch (err) {
      notify(err instanceof ApiError ? err.message : t('common.error'), 'error');
    } finally {
      setExporting(false);
    }
  };

  const clearAll = () => {
    setFilters({});
    setFilterKey((k) => k + 1);
    firstPage();
  };

  const chips: Array<{ key: keyof FollowUpFilterValues; label: string }> = [];
  if (filters.search)
    chips.push({ key: 'search', label: t('followUp.chips.search', { text: filters.search }) });
  if (filters.status) chips.push({ key: 'status', label: t(`followUp.status.${filters.status}`) });
  if (filters.inactive_days !== undefined)
    chips.push({
      key: 'inactive_days',
      label: t('followUp.chips.inactive', { count: filters.inactive_days }),
    });
  if (filters.progress_below !== undefined)
    chips.push({
      key: 'progress_below',
      label: t('followUp.chips.progress', { value: filters.progress_below }),
    });
  if (filters.open_tickets)
    chips.push({ key: 'open_tickets', label: t('followUp.filters.openTickets') });

  const total = students.data?.total ?? 0;
  const refresh = () => void queryClient.invalidateQueries({ queryKey: ['follow-up'] });
  return (
    <>
      <Stack
        key={filterKey}
        direction="row"
        spacing={2}
        useFlexGap
        sx={{ flexWrap: 'wrap', alignItems: 'flex-start' }}
        role="search"
        aria-label={t('followUp.filters.title')}
      >
        <SearchBox onChange={onSearch} width={260} initial={filters.search} />
        <TextField
          select
          label={t('followUp.filters.status')}
          value={filters.status ?? ''}
          onChange={(e) =>
            change({ status: (e.target.value || undefined) as FollowUpStatus | undefined })
          }
          sx={{ width: 200 }}
        >
          <MenuItem value="">{t('followUp.filters.any')}</MenuItem>
          {FOLLOW_UP_STATUSES.map((s) => (
            <MenuItem key={s} value={s}>
              {t(`followUp.status.${s}`)}
            </MenuItem>
          ))}
        </TextField>
        <NumberFilter
          label={t('followUp.filters.inactiveDays')}
          unit={t('followUp.filters.days')}
          value={filters.inactive_days}
          max={FOLLOW_UP_MAX_DAYS}
          onChange={(n) => change({ inactive_days: n })}
        />
        <NumberFilter
          label={t('followUp.filters.progressBelow')}
          unit="%"
          value={filters.progress_below}
          max={100}
          onChange={(n) => change({ progress_below: n })}
        />
        <FormControlLabel
          control={
            <Switch
              checked={Boolean(filters.open_tickets)}
              onChange={(e) => change({ open_tickets: e.target.checked || undefined })}
            />
          }
          label={t('followUp.filters.openTickets')}
        />
      </Stack>
      <Stack
        direction="row"
        spacing={1}
        useFlexGap
        sx={{ flexWrap: 'wrap', alignItems: 'center', mt: 1.5, minHeight: 32 }}
      >
        <Typography
          variant="body2"
          role="status"
          sx={{ fontWeight: 600 }}
          data-testid="follow-up-total"
        >
          {t('followUp.table.count', { count: total })}
        </Typography>
        {chips.map((c) => (
          <StateChip
            key={c.key}
            kind="studentState"
            stateKey={c.key === 'status' ? filters.status : null}
            size="medium"
            label={c.label}
            color="primary"
            variant="outlined"
            onDelete={() => (c.key === 'search' ? clearAll() : change({ [c.key]: undefined }))}
          />
        ))}
        {chips.length > 0 && (
          <Button size="small" onClick={clearAll}>
            {t('followUp.filters.clear')}
          </Button>
        )}
        <Box sx={{ flex: 1 }} />
        {canWork && selected.length > 0 && (
          <Typography variant="body2" sx={{ fontWeight: 600 }}>
            {t('followUp.table.selected', { count: selected.length })}
          </Typography>
        )}
        {canWork && (
          <>
            <Tooltip title={selected.length ? '' : t('followUp.table.selectFirst')}>
              <span>
                <Button
                  variant="outlined"
                  startIcon={<ConfirmationNumberIcon />}
                  disabled={!selected.length}
                  onClick={() => setTicketFor(selected)}
                >
                  {t('followUp.actions.tickets')}
                </Button>
              </span>
            </Tooltip>
            <Tooltip title={selected.length ? '' : t('followUp.table.selectFirst')}>
              <span>
                <Button
                  variant="outlined"
                  startIcon={<MailIcon />}
                  disabled={!selected.length}
                  onClick={() => setMailing(true)}
                >
                  {t('followUp.actions.mail')}
                </Button>
              </span>
            </Tooltip>
          </>
        )}
        <Button
          variant="contained"
          startIcon={
            exporting ? <CircularProgress size={18} color="inherit" /> : <FileDownloadIcon />
          }
          disabled={exporting || total === 0}
          onClick={() => void doExport()}
        >
          {t('followUp.actions.export')}
        </Button>
      </Stack>
      {students.isError && (
        <Alert severity="error" sx={{ mt: 1 }}>
          {students.error instanceof ApiError ? students.error.message : t('common.loadError')}
        </Alert>
      )}
      <ServerDataGrid
        label={t('followUp.table.title')}
        rows={students.data?.rows ?? []}
        total={total}
        {...fit}
        loading={students.isFetching}
        {...grid}
        {...(canWork ? selectionProps(selected, setSelected) : {})}
        disableRowSelectionOnClick
        onRowDoubleClick={(p) => setDetail(Number(p.id))}
        localeText={{ ...gridLocale, noRowsLabel: t('followUp.table.empty') }}
        sx={{ mt: 1, ...gridHeaderSx }}
      />
      {detail !== null && (
        <StudentDetailDrawer
          enrolmentId={detail}
          canWork={canWork}
          onClose={() => setDetail(null)}
          onOpenTicket={(id) => setTicketFor([id])}
        />
      )}
      {mailing && (
        <FollowUpMailDialog
          enrolmentIds={selected}
          courseId={course.id}
          onClose={() => {
            setMailing(false);
            refresh();
          }}
        />
      )}
      {ticketFor && (
        <CreateMassiveDialog
          course={course}
          initialSelection={ticketFor}
          onClose={() => {
            setTicketFor(null);
            refresh();
          }}
        />
      )}
    </>
  );
}
