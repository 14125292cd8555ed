import { chileParts, type AgendaWorkload } from '@sigaf/contract';
import EventNoteIcon from '@mui/icons-material/EventNote';
import SwapHorizIcon from '@mui/icons-material/SwapHoriz';
import UndoIcon from '@mui/icons-material/Undo';
import { Alert, Button, Chip, MenuItem, Stack, TextField, Typography } from '@mui/material';
import { GridActionsCellItem, type GridColDef } from '@mui/x-data-grid';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { ServerDataGrid } from '../../components/ServerDataGrid';
import { useFitColumns } from '../../components/useFitColumns';
import { useNotify } from '../../components/Snackbar';
import { ApiError, getData } from '../../lib/api';
import { useStaff } from '../reminders/api';
import { useReassign, useWorkload } from './api';
import { Section, TableState } from './parts';

/** Tickets sent in one reassignment (the API's limit). */
const REASSIGN_MAX = 500;

interface Move {
  from: { id: number; name: string };
  to: { id: number; name: string };
  ticketIds: number[];
}

/** Administrators: per operator, reminders due and overdue, open tickets, at-risk students; reassign one operator's work. */
export function Workload({ onPick }: { onPick: (userId: number) => void }) {
  const { t } = useTranslation();
  const notify = useNotify();
  const q = useWorkload(true);
  const staff = useStaff(true);
  const reassign = useReassign();
  const [from, setFrom] = useState<AgendaWorkload | null>(null);
  const [to, setTo] = useState<number | ''>('');
  /** The reassignment about to be confirmed, then the one just done (which can be undone). */
  const [pending, setPending] = useState<Move | null>(null);
  const [done, setDone] = useState<Move | null>(null);
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
  const failed = (err: unknown) =>
    notify(err instanceof ApiError ? err.message : t('common.error'), 'warning');
  // The operator's open tickets (with their pending reminders) go to the chosen operator, once confirmed.
  const prepare = async () => {
    if (!from || to === '') return;
    try {
      const tickets = await getData<{ collections: Array<{ properties: { id: number } }> }>(
        `/api/v2/tickets/operator/${from.userId}`,
        { query: { status: 'open', compact: true } },
      );
      const target = staff.data?.find((s) => s.id === to);
      setPending({
        from: { id: from.userId, name: from.name },
        to: { id: to, name: target?.name ?? '' },
        ticketIds: tickets.collections.map((c) => c.properties.id).slice(0, REASSIGN_MAX),
      });
    } catch (err) {
      failed(err);
    }
  };
  const confirm = async () => {
    if (!pending) return;
    try {
      const res = await reassign.mutateAsync({
        to_user_id: pending.to.id,
        ticket_ids: pending.ticketIds,
      });
      notify(res.message);
      setDone(pending);
      setFrom(null);
    } catch (err) {
      failed(err);
    } finally {
      setPending(null);
    }
  };
  // Undo: the same tickets (with the reminders that went with them) back to the first operator.
  const undo = async () => {
    if (!done) return;
    try {
      notify(
        (await reassign.mutateAsync({ to_user_id: done.from.id, ticket_ids: done.ticketIds }))
          .message,
      );
      setDone(null);
    } catch (err) {
      failed(err);
    }
  };
  const fit = useFitColumns(columns, {
    remember: 'agenda-workload',
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
        columns={columns}
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
      {from && (
        <Alert
          severity="info"
          // On a narrow screen the picker and its buttons go below the sentence.
          sx={{
            mt: 1,
            flexWrap: 'wrap',
            '& .MuiAlert-action': { ml: { xs: 0, sm: 'auto' }, pl: { xs: 0, sm: 2 } },
          }}
          action={
            <Stack
              direction="row"
              useFlexGap
              sx={{ alignItems: 'center', flexWrap: 'wrap', gap: 1 }}
            >
              <TextField
                select
                size="small"
                label={t('agenda.reassignTo')}
                value={to}
                onChange={(e) => setTo(Number(e.target.value))}
                sx={{ minWidth: 200 }}
              >
                {(staff.data ?? [])
                  .filter((s) => s.id !== from.userId)
                  .map((s) => (
                    <MenuItem key={s.id} value={s.id}>
                      {s.name}
                    </MenuItem>
                  ))}
              </TextField>
              <Chip
                clickable
                color="primary"
                label={t('agenda.reassignConfirm')}
                onClick={() => void prepare()}
                disabled={to === '' || reassign.isPending}
              />
              <Chip clickable label={t('common.cancelSentence')} onClick={() => setFrom(null)} />
            </Stack>
          }
        >
          {t('agenda.reassignHelp', { name: from.name })}
        </Alert>
      )}
      {done && (
        <Alert
          severity="success"
          sx={{ mt: 1 }}
          data-testid="reassign-done"
          onClose={() => setDone(null)}
          action={
            <Button
              color="inherit"
              size="small"
              startIcon={<UndoIcon />}
              onClick={() => void undo()}
              disabled={reassign.isPending}
            >
              {t('agenda.reassignUndo')}
            </Button>
          }
        >
          {t('agenda.reassignDone', {
            count: done.ticketIds.length,
            from: done.from.name,
            to: done.to.name,
          })}
        </Alert>
      )}
      <ConfirmDialog
        open={pending !== null}
        title={t('agenda.reassignConfirmTitle')}
        message={
          pending
            ? t(pending.ticketIds.length ? 'agenda.reassignAsk' : 'agenda.reassignNothing', {
                count: pending.ticketIds.length,
                from: pending.from.name,
                to: pending.to.name,
              })
            : ''
        }
        confirmLabel={t('agenda.reassignConfirm')}
        onCancel={() => setPending(null)}
        onConfirm={pending?.ticketIds.length ? confirm : () => setPending(null)}
      />
    </Section>
  );
}
