import AddCommentIcon from '@mui/icons-material/AddComment';
import DeleteIcon from '@mui/icons-material/Delete';
import EditNoteIcon from '@mui/icons-material/EditNote';
import LockIcon from '@mui/icons-material/Lock';
import LockOpenIcon from '@mui/icons-material/LockOpen';
import VisibilityIcon from '@mui/icons-material/Visibility';
import { Box, Stack, Tooltip, useTheme } from '@mui/material';
import { GridActionsCellItem, type GridColDef, type GridRowSelectionModel } from '@mui/x-data-grid';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { ServerDataGrid, type useServerPage } from '../../components/ServerDataGrid';
import { StateChip } from '../../components/StateChip';
import { useFitColumns } from '../../components/useFitColumns';
import type { Ticket } from './api';
import { PriorityChip, TypeIcon } from './AttemptTimeline';
import { fullName, lockSince, stamp } from './format';
import { useCatalogueText } from '../../lib/catalogue';
import { serverText } from '../../lib/serverText';

/** The grid's own Spanish texts come from the theme; only ours are added. */
export function useGridLocale() {
  const theme = useTheme();
  return (
    theme.components as { MuiDataGrid?: { defaultProps?: { localeText?: object } } } | undefined
  )?.MuiDataGrid?.defaultProps?.localeText;
}

/** Bold red headers (docs/development/screens.md#conventions). */
export const gridHeaderSx = {
  '& .MuiDataGrid-columnHeaderTitle': { fontWeight: 700, color: 'secondary.main' },
} as const;

/** Checkbox selection of row ids that survives paging (the rows of other pages stay selected). */
export function selectionProps(ids: number[], onChange: (ids: number[]) => void) {
  const model: GridRowSelectionModel = { type: 'include', ids: new Set(ids) };
  return {
    checkboxSelection: true,
    disableRowSelectionExcludeModel: true,
    keepNonExistentRowsSelected: true,
    rowSelectionModel: model,
    onRowSelectionModelChange: (m: GridRowSelectionModel) => onChange([...m.ids].map(Number)),
  };
}

/** Fields that do not open the ticket when clicked. */
const NOT_OPENING = new Set(['__check__', 'actions']);

interface Props {
  rows: Ticket[];
  total: number;
  loading: boolean;
  /** Pages and sort, from useServerPage. */
  grid: ReturnType<typeof useServerPage>['grid'];
  selection: number[];
  onSelectionChange: (ids: number[]) => void;
  onOpen: (t: Ticket) => void;
  onDelete: (t: Ticket) => void;
  showCourse?: boolean;
  label: string;
}

/** Tickets, paginated and sorted by the server (column fields are the server's sort keys). */
export function TicketGrid({
  rows,
  total,
  loading,
  grid,
  selection,
  onSelectionChange,
  onOpen,
  onDelete,
  showCourse,
  label,
}: Props) {
  const { t } = useTranslation();
  const cat = useCatalogueText();
  const gridLocale = useGridLocale();
  const columns = useMemo<GridColDef<Ticket>[]>(() => {
    const cols: GridColDef<Ticket>[] = [
      {
        field: 'priority',
        headerName: t('tickets.columns.priority'),
        width: 100,
        valueGetter: (_v, r) => cat(r.priorityTicket.description),
        renderCell: (p) => <PriorityChip priority={p.row.priorityTicket} />,
      },
      { field: 'ticketCode', headerName: t('tickets.columns.code'), width: 120 },
      {
        field: 'attempts',
        headerName: t('tickets.columns.attempts'),
        width: 80,
        align: 'center',
        headerAlign: 'center',
        renderCell: (p) => (
          <Box
            aria-label={t('tickets.row.attempts', { count: p.row.attempts })}
            sx={{
              display: 'inline-flex',
              alignItems: 'center',
              justifyContent: 'center',
              width: 28,
              height: 28,
              borderRadius: '50%',
              color: 'white',
              fontWeight: 700,
              fontSize: 13,
              bgcolor: p.row.attempts ? 'success.main' : 'error.main',
            }}
          >
            {p.row.attempts}
          </Box>
        ),
      },
      {
        field: 'classroom',
        headerName: t('tickets.columns.classroom'),
        width: 110,
        valueGetter: (_v, r) =>
          r.courseRegisteredUser.classroom?.id
            ? r.courseRegisteredUser.classroom.description
            : t('tickets.noClassroom'),
      },
      {
        field: 'rut',
        headerName: t('tickets.columns.rut'),
        width: 115,
        valueGetter: (_v, r) => r.courseRegisteredUser.registeredUser.rut,
      },
      {
        field: 'student',
        headerName: t('tickets.columns.name'),
        flex: 1,
        minWidth: 150,
        valueGetter: (_v, r) => fullName(r.courseRegisteredUser.registeredUser),
      },
      {
        field: 'motive',
        headerName: t('tickets.columns.motive'),
        width: 130,
        valueGetter: (_v, r) => cat(r.motiveTicket.description),
      },
      {
        field: 'type',
        headerName: t('tickets.columns.type'),
        width: 70,
        align: 'center',
        valueGetter: (_v, r) => cat(r.typeTicket.description),
        renderCell: (p) => <TypeIcon type={p.row.typeTicket} />,
      },
      {
        field: 'status',
        headerName: t('tickets.columns.status'),
        width: 120,
        valueGetter: (_v, r) => cat(r.statusTicket.description),
        renderCell: (p) => (
          <Stack direction="row" spacing={0.5} sx={{ alignItems: 'center', height: '100%' }}>
            <StateChip
              kind="ticketStatus"
              stateKey={p.row.statusTicket.key}
              icon={p.row.close ? <LockIcon /> : <LockOpenIcon />}
              label={p.row.statusTicket.description}
            />
            {p.row.lock && !p.row.lock.expired && (
              <Tooltip
                title={t('tickets.row.editing', {
                  name: p.row.lock.user.name,
                  since: lockSince(p.row.lock),
                })}
              >
                <EditNoteIcon
                  fontSize="small"
                  color="warning"
                  aria-label={t('tickets.row.editing', {
                    name: p.row.lock.user.name,
                    since: lockSince(p.row.lock),
                  })}
                  role="img"
                />
              </Tooltip>
            )}
          </Stack>
        ),
      },
      {
        field: 'age',
        headerName: t('tickets.columns.age'),
        width: 110,
        // The server's Spanish age ("2 días") in the screen's language.
        valueGetter: (_v, r) => serverText(t, r.ageText),
      },
      {
        field: 'createdAt',
        headerName: t('tickets.columns.createdAt'),
        width: 150,
        valueGetter: (_v, r) => stamp(r),
      },
      {
        field: 'operator',
        headerName: t('tickets.columns.operator'),
        width: 130,
        valueGetter: (_v, r) =>
          r.userAssigned?.id ? r.userAssigned.name : t('tickets.unassigned'),
      },
    ];
    const actionsColumn: GridColDef<Ticket> = {
      field: 'actions',
      type: 'actions',
      headerName: t('tickets.columns.actions'),
      width: 90,
      getActions: ({ row }) => {
        const actions = [
          <GridActionsCellItem
            key="open"
            icon={row.close ? <VisibilityIcon /> : <AddCommentIcon />}
            label={t(row.close ? 'tickets.row.view' : 'tickets.row.addContact')}
            onClick={() => onOpen(row)}
          />,
        ];
        if (row.showDeleteButton)
          actions.push(
            <GridActionsCellItem
              key="delete"
              icon={<DeleteIcon />}
              label={t('tickets.row.delete')}
              onClick={() => onDelete(row)}
            />,
          );
        return actions;
      },
    };
    // Row actions right after the attempts, as the original: always in view, however wide the table.
    cols.splice(3, 0, actionsColumn);
    if (showCourse)
      cols.splice(2, 0, {
        field: 'course',
        headerName: t('tickets.columns.course'),
        width: 160,
        valueGetter: (_v, r) => r.courseRegisteredUser.course.description,
      });
    return cols;
  }, [t, cat, showCourse, onOpen, onDelete]);
  // The main columns fit a 1366 px screen with the menu open; narrower, the less important ones
  // leave too. Any of them is one click away (column menu), and that choice is remembered.
  const fit = useFitColumns(columns, {
    remember: 'tickets',
    checkbox: true,
    under: 'student',
    hidden: ['classroom', 'motive', 'type', 'age', 'createdAt'],
    hideFirst: ['rut', 'operator', 'priority', 'attempts', 'course', 'status', 'ticketCode'],
  });

  return (
    <ServerDataGrid
      label={label}
      rows={rows}
      total={total}
      loading={loading}
      {...fit}
      {...grid}
      {...selectionProps(selection, onSelectionChange)}
      disableRowSelectionOnClick
      onCellClick={(p) => !NOT_OPENING.has(p.field) && onOpen(p.row)}
      onCellKeyDown={(p, e) => {
        if (e.key === 'Enter' && !NOT_OPENING.has(p.field)) onOpen(p.row);
      }}
      localeText={{ ...gridLocale, noRowsLabel: t('tickets.empty') }}
      sx={{ ...gridHeaderSx, '& .MuiDataGrid-row': { cursor: 'pointer' } }}
    />
  );
}
