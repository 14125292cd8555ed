import { type AgendaWorkload } from '@sigaf/contract';
import EventNoteIcon from '@mui/icons-material/EventNote';
import SwapHorizIcon from '@mui/icons-material/SwapHoriz';
import { Alert, Chip, MenuItem, Stack, TextField } from '@mui/material';
import { GridActionsCellItem, type GridColDef } from '@mui/x-data-grid';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ServerDataGrid } from '../../components/ServerDataGrid';
import { useNotify } from '../../components/Snackbar';
import { ApiError, getData } from '../../lib/api';
import { useReassign, useStaff, useWorkload } from './api';
import { Section, TableState } from './parts';

/** Administrators: per operator, reminders due and overdue, open tickets, at-risk students; reassign one operator's work. */
export function Workload({ onPick }: { onPick: (userId: number) => void }) {
  const { t } = useTranslation();
  const notify = useNotify();
  const q = useWorkload(true);
  const staff = useStaff(true);
  const reassign = useReassign();
  const [from, setFrom] = useState<AgendaWorkload | null>(null);
  const [to, setTo] = useState<number | ''>('');
  const columns: GridColDef<AgendaWorkload>[] = [
    { field: 'name', headerName: t('agenda.columns.operator'), flex: 1, minWidth: 160 },
    { field: 'due', headerName: t('agenda.columns.dueToday'), type: 'number', width: 120 },
    { field: 'overdue', headerName: t('agenda.columns.overdue'), type: 'number', width: 120 },
    { field: 'openTickets', headerName: t('agenda.columns.openTickets'), type: 'number', width: 130 },
    { field: 'atRisk', headerName: t('agenda.columns.atRisk'), type: 'number', width: 150 },
    {
      field: 'actions',
      type: 'actions',
      headerName: t('common.actions'),
      width: 100,
      getActions: ({ row }) => [
        <GridActionsCellItem key="see" icon={<EventNoteIcon />} label={t('agenda.actions.seeAgenda', { name: row.name })} onClick={() => onPick(row.userId)} />,
        <GridActionsCellItem key="move" icon={<SwapHorizIcon />} label={t('agenda.actions.reassign', { name: row.name })} onClick={() => setFrom(row)} />,
      ],
    },
  ];
  const move = async () => {
    if (!from || to === '') return;
    try {
      // The operator's open tickets (with their pending reminders) go to the chosen operator.
      const tickets = await getData<{ collections: Array<{ properties: { id: number } }> }>(`/api/v2/tickets/operator/${from.userId}`, { query: { status: 'open', compact: true } });
      const res = await reassign.mutateAsync({ to_user_id: to, ticket_ids: tickets.collections.map((c) => c.properties.id).slice(0, 500) });
      notify(res.message);
      setFrom(null);
    } catch (err) {
      notify(err instanceof ApiError ? err.message : t('common.error'), 'warning');
    }
  };
  return (
    <Section id="agenda-workload" title={t('agenda.sections.workload')} help={t('agenda.sections.workloadHelp')}>
      <TableState error={q.isError} empty={false} emptyText="" />
      <ServerDataGrid<AgendaWorkload>
        label={t('agenda.sections.workload')}
        rows={q.data ?? []}
        getRowId={(r) => r.userId}
        total={q.data?.length ?? 0}
        loading={q.isPending}
        columns={columns}
        paginationMode="client"
        sortingMode="client"
        initialState={{ pagination: { paginationModel: { pageSize: 10 } } }}
        disableRowSelectionOnClick
      />
      {from && (
        <Alert
          severity="info"
          sx={{ mt: 1 }}
          action={
            <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
              <TextField select size="small" label={t('agenda.reassignTo')} value={to} onChange={(e) => setTo(Number(e.target.value))} sx={{ minWidth: 200 }}>
                {(staff.data ?? [])
                  .filter((s) => s.id !== from.userId)
                  .map((s) => (
                    <MenuItem key={s.id} value={s.id}>
                      {s.name}
                    </MenuItem>
                  ))}
              </TextField>
              <Chip clickable color="primary" label={t('agenda.reassignConfirm')} onClick={() => void move()} disabled={to === '' || reassign.isPending} />
              <Chip clickable label={t('common.cancelSentence')} onClick={() => setFrom(null)} />
            </Stack>
          }
        >
          {t('agenda.reassignHelp', { name: from.name })}
        </Alert>
      )}
    </Section>
  );
}
