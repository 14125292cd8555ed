import { chileParts, type AgendaReassignResult, type AgendaWorkload } from '@sigaf/contract';
import EventNoteIcon from '@mui/icons-material/EventNote';
import SwapHorizIcon from '@mui/icons-material/SwapHoriz';
import UndoIcon from '@mui/icons-material/Undo';
import { Alert, Button, Typography } from '@mui/material';
import { GridActionsCellItem, type GridColDef } from '@mui/x-data-grid';
import type { TFunction } from 'i18next';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ServerDataGrid } from '../../components/ServerDataGrid';
import { useFitColumns } from '../../components/useFitColumns';
import { useNotify } from '../../components/Snackbar';
import { ApiError } from '../../lib/api';
import { useFormat } from '../../lib/format';
import { useLastReassign, useUndoReassign, useWorkload } from './api';
import { Section, TableState } from './parts';
import { ReassignDialog } from './ReassignDialog';

/** What moved and to whom: "17 tickets reasignados a Ana Pérez, con 3 recordatorios." */
export function reassignedText(t: TFunction, r: AgendaReassignResult): string {
  const parts = [
    t('agenda.reassigned', { count: r.tickets, to: r.to.name }),
    r.reminders ? t('agenda.reassignedReminders', { count: r.reminders }) : '',
  ].join('');
  return r.refused
    ? `${parts}. ${t('agenda.reassignedRefused', { count: r.refused })}`
    : `${parts}.`;
}

/** Administrators: per operator, reminders due and overdue, open tickets, at-risk students; reassign one operator's work (undone even after a reload). */
export function Workload({ onPick }: { onPick: (userId: number) => void }) {
  const { t } = useTranslation();
  const notify = useNotify();
  const format = useFormat();
  const q = useWorkload(true);
  const last = useLastReassign(true);
  const undoing = useUndoReassign();
  const [from, setFrom] = useState<AgendaWorkload | null>(null);
  /** The moment of a last reassignment whose notice was closed (it stays undoable on reload). */
  const [hidden, setHidden] = useState<string | null>(null);
  const columns: GridColDef<AgendaWorkload>[] = [
    { field: 'name', headerName: t('agenda.columns.operator'), flex: 1, minWidth: 160 },
    {
      field: 'due',
      headerName: t('agenda.columns.dueToday'),
      type: 'number',
      flex: 0.4,
      minWidth: 110,
    },
    {
      field: 'overdue',
      headerName: t('agenda.columns.overdue'),
      type: 'number',
      flex: 0.4,
      minWidth: 110,
    },
    {
      field: 'openTickets',
      headerName: t('agenda.columns.openTickets'),
      type: 'number',
      flex: 0.4,
      minWidth: 130,
    },
    {
      field: 'atRisk',
      headerName: t('agenda.columns.atRisk'),
      description: t('agenda.columns.atRiskHelp'),
      type: 'number',
      flex: 0.5,
      minWidth: 185,
    },
    {
      field: 'actions',
      type: 'actions',
      headerName: t('common.actions'),
      width: 100,
      getActions: ({ row }) => [
        <GridActionsCellItem
          key="see"
          icon={<EventNoteIcon />}
          label={t('agenda.actions.seeAgenda', { name: row.name })}
          onClick={() => onPick(row.userId)}
        />,
        <GridActionsCellItem
          key="move"
          icon={<SwapHorizIcon />}
          label={t('agenda.actions.reassign', { name: row.name })}
          onClick={() => setFrom(row)}
        />,
      ],
    },
  ];
  const done = (r: AgendaReassignResult) => {
    notify(reassignedText(t, r));
    setFrom(null);
  };
  // Undo: the same tickets (with the reminders that went with them) back to the first operator.
  const undo = async () => {
    try {
      done((await undoing.mutateAsync())._data);
    } catch (err) {
      notify(err instanceof ApiError ? err.message : t('common.error'), 'warning');
    }
  };
  const l = last.data;
  const fit = useFitColumns(columns, {
    remember: 'agenda-workload',
    under: 'name',
    hideFirst: ['due', 'overdue', 'openTickets', 'atRisk'],
  });
  return (
    <Section
      id="agenda-workload"
      title={t('agenda.sections.workload')}
      help={t('agenda.sections.workloadHelp')}
    >
      <TableState error={q.isError} empty={false} emptyText="" />
      <ServerDataGrid<AgendaWorkload>
        label={t('agenda.sections.workload')}
        rows={q.data?.rows ?? []}
        getRowId={(r) => r.userId}
        total={q.data?.rows.length ?? 0}
        loading={q.isPending}
        {...fit}
        paginationMode="client"
        sortingMode="client"
        initialState={{ pagination: { paginationModel: { pageSize: 10 } } }}
        disableRowSelectionOnClick
      />
      {q.data && (
        <Typography variant="caption" color="text.secondary" data-testid="workload-counted-at">
          {t('agenda.atRiskCountedAt', { time: chileParts(q.data.atRiskCountedAt).time })}
        </Typography>
      )}
      {l && l.at !== hidden && (
        <Alert
          severity="success"
          sx={{ mt: 1 }}
          data-testid="reassign-done"
          onClose={() => setHidden(l.at)}
          action={
            <Button
              color="inherit"
              size="small"
              startIcon={<UndoIcon />}
              onClick={() => void undo()}
              disabled={undoing.isPending}
            >
              {t('agenda.reassignUndo')}
            </Button>
          }
        >
          {t('agenda.reassignDone', { count: l.tickets, from: l.from.name, to: l.to.name })}{' '}
          {t('agenda.reassignUntil', { moment: format.dateTime(l.until) })}
        </Alert>
      )}
      {from && <ReassignDialog from={from} onClose={() => setFrom(null)} onDone={done} />}
    </Section>
  );
}
