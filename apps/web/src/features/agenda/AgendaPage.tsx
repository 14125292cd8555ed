import { chileDateTime, isAdminLike, type AgendaStudent, type AgendaTicket, type AgendaWorkload, type Reminder } from '@sigaf/contract';
import AddTaskIcon from '@mui/icons-material/AddTask';
import AlarmAddIcon from '@mui/icons-material/AlarmAdd';
import EventNoteIcon from '@mui/icons-material/EventNote';
import MailIcon from '@mui/icons-material/Mail';
import PhoneInTalkIcon from '@mui/icons-material/PhoneInTalk';
import SnoozeIcon from '@mui/icons-material/Snooze';
import SwapHorizIcon from '@mui/icons-material/SwapHoriz';
import VisibilityIcon from '@mui/icons-material/Visibility';
import { Alert, Box, Button, Chip, FormControlLabel, MenuItem, Stack, Switch, TextField, Typography } from '@mui/material';
import TuneIcon from '@mui/icons-material/Tune';
import { GridActionsCellItem, type GridColDef } from '@mui/x-data-grid';
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { PageCard } from '../../components/PageCard';
import { ServerDataGrid, useServerPage } from '../../components/ServerDataGrid';
import { useNotify } from '../../components/Snackbar';
import { ApiError, getData } from '../../lib/api';
import { useSession } from '../auth/session';
import { FollowUpMailDialog } from '../follow-up/FollowUpMailDialog';
import { CreateMassiveDialog } from '../tickets/CreateTickets';
import { TicketDialog, useTicketParam } from '../tickets/TicketDialog';
import { useAgendaReminders, useAgendaStudents, useAgendaTickets, useDigest, useReassign, useSaveDigest, useStaff, useWorkload } from './api';
import { CourseSettingsDialog } from './CourseSettingsDialog';
import { LogAttemptDialog } from './LogAttemptDialog';
import { ReminderDialog } from './ReminderDialog';
import { ReminderStateChip } from './ReminderList';

function Section({ id, title, help, children }: { id: string; title: string; help: string; children: ReactNode }) {
  return (
    <Box component="section" aria-labelledby={id} sx={{ mt: 3 }}>
      <Typography id={id} variant="h6" component="h2" sx={{ color: 'primary.main', fontWeight: 700 }}>
        {title}
      </Typography>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
        {help}
      </Typography>
      {children}
    </Box>
  );
}

/** Loading, error and empty states around a table. */
function TableState({ error, empty, emptyText }: { error: boolean; empty: boolean; emptyText: string }) {
  const { t } = useTranslation();
  if (error) return <Alert severity="error">{t('common.loadError')}</Alert>;
  if (empty) return <Alert severity="success">{emptyText}</Alert>;
  return null;
}

/** (1) Reminders due today and overdue: open the ticket, log the attempt here, snooze. */
function DueReminders({ userId, onOpen }: { userId?: number; onOpen: (ticketId: number) => void }) {
  const { t } = useTranslation();
  const { params, grid } = useServerPage(10);
  const q = useAgendaReminders({ ...params, user_id: userId });
  const [attempt, setAttempt] = useState<Reminder | null>(null);
  const [snooze, setSnooze] = useState<Reminder | null>(null);
  const columns: GridColDef<Reminder>[] = [
    { field: 'due_at', headerName: t('agenda.columns.due'), width: 150, valueGetter: (_v, r) => chileDateTime(r.dueAt) },
    { field: 'state', headerName: t('agenda.columns.state'), width: 110, renderCell: ({ row }) => <ReminderStateChip reminder={row} /> },
    { field: 'ticket', headerName: t('agenda.columns.ticket'), width: 150, valueGetter: (_v, r) => r.ticketCode },
    { field: 'student', headerName: t('agenda.columns.student'), flex: 1, minWidth: 160, sortable: false },
    { field: 'course', headerName: t('agenda.columns.course'), flex: 1, minWidth: 140, sortable: false },
    { field: 'comment', headerName: t('agenda.columns.comment'), flex: 1, minWidth: 140, sortable: false },
    {
      field: 'actions',
      type: 'actions',
      headerName: t('common.actions'),
      width: 130,
      getActions: ({ row }) => [
        <GridActionsCellItem key="open" icon={<VisibilityIcon />} label={t('agenda.actions.openTicket', { code: row.ticketCode })} onClick={() => onOpen(row.ticketId)} />,
        <GridActionsCellItem key="attempt" icon={<PhoneInTalkIcon />} label={t('agenda.actions.logAttempt', { code: row.ticketCode })} onClick={() => setAttempt(row)} />,
        <GridActionsCellItem key="snooze" icon={<SnoozeIcon />} label={t('agenda.actions.snooze', { code: row.ticketCode })} onClick={() => setSnooze(row)} />,
      ],
    },
  ];
  return (
    <Section id="agenda-reminders" title={t('agenda.sections.reminders')} help={t('agenda.sections.remindersHelp')}>
      <TableState error={q.isError} empty={q.data?.total === 0} emptyText={t('agenda.empty.reminders')} />
      {q.data?.total !== 0 && (
        <ServerDataGrid<Reminder>
          label={t('agenda.sections.reminders')}
          rows={q.data?.rows ?? []}
          total={q.data?.total ?? 0}
          loading={q.isPending}
          columns={columns}
          getRowClassName={({ row }) => (row.overdue ? 'agenda-overdue' : '')}
          sx={{ '& .agenda-overdue': { bgcolor: 'rgba(211,47,47,0.08)', borderLeft: 4, borderColor: 'error.main' } }}
          disableRowSelectionOnClick
          {...grid}
        />
      )}
      {attempt && <LogAttemptDialog ticketId={attempt.ticketId} ticketCode={attempt.ticketCode} onClose={() => setAttempt(null)} />}
      {snooze && <ReminderDialog reminder={snooze} snooze onClose={() => setSnooze(null)} />}
    </Section>
  );
}

const RULE_COLORS = { resigning: 'error', inactive: 'warning', behind: 'info' } as const;

/** (2) Students at risk with no recent contact attempt: each row says which rule matched. */
function AtRiskStudents({ userId, canWork, onOpen }: { userId?: number; canWork: boolean; onOpen: (ticketId: number) => void }) {
  const { t } = useTranslation();
  const { params, grid } = useServerPage(10);
  const q = useAgendaStudents({ ...params, user_id: userId });
  const [mail, setMail] = useState<AgendaStudent | null>(null);
  const [create, setCreate] = useState<AgendaStudent | null>(null);
  const [remind, setRemind] = useState<AgendaStudent | null>(null);
  const columns: GridColDef<AgendaStudent>[] = [
    { field: 'name', headerName: t('agenda.columns.student'), flex: 1, minWidth: 170 },
    { field: 'course', headerName: t('agenda.columns.course'), flex: 1, minWidth: 140 },
    { field: 'classroom', headerName: t('agenda.columns.classroom'), width: 120, sortable: false },
    {
      field: 'rules',
      headerName: t('agenda.columns.why'),
      width: 220,
      sortable: false,
      renderCell: ({ row }) => (
        <Stack direction="row" spacing={0.5} sx={{ alignItems: 'center', height: '100%' }}>
          {row.rules.map((r) => (
            <Chip key={r} size="small" color={RULE_COLORS[r]} label={t(`agenda.rules.${r === 'inactive' && row.lastAccess === null ? 'neverAccessed' : r}`, { days: row.daysWithoutAccess ?? 0, progress: row.progress ?? 0, expected: row.expectedProgress ?? 0 })} />
          ))}
        </Stack>
      ),
    },
    { field: 'progress', headerName: t('agenda.columns.progress'), width: 110, valueGetter: (_v, r) => (r.progress === null ? '—' : `${r.progress} %`) },
    { field: 'lastAccess', headerName: t('agenda.columns.lastAccess'), width: 150, valueGetter: (_v, r) => (r.lastAccess ? chileDateTime(r.lastAccess) : t('agenda.never')) },
    { field: 'lastAttemptAt', headerName: t('agenda.columns.lastAttempt'), width: 150, valueGetter: (_v, r) => (r.lastAttemptAt ? chileDateTime(r.lastAttemptAt) : t('agenda.never')) },
    {
      field: 'actions',
      type: 'actions',
      headerName: t('common.actions'),
      width: 150,
      getActions: ({ row }) => [
        ...(canWork && row.openTicketId
          ? [
              <GridActionsCellItem key="open" icon={<VisibilityIcon />} label={t('agenda.actions.openStudentTicket', { name: row.name })} onClick={() => onOpen(row.openTicketId!)} />,
              <GridActionsCellItem key="remind" icon={<AlarmAddIcon />} label={t('agenda.actions.schedule', { name: row.name })} onClick={() => setRemind(row)} />,
            ]
          : []),
        ...(canWork && !row.openTicketId ? [<GridActionsCellItem key="create" icon={<AddTaskIcon />} label={t('agenda.actions.createTicket', { name: row.name })} onClick={() => setCreate(row)} />] : []),
        // Staff write through SIGAF's outbox; a tutor (who sends no mail through SIGAF) opens their own mail program.
        <GridActionsCellItem
          key="mail"
          icon={<MailIcon />}
          label={t('agenda.actions.mail', { name: row.name })}
          onClick={() => (canWork ? setMail(row) : window.open(`mailto:${encodeURIComponent(row.email ?? '')}`, '_self'))}
          disabled={!row.email}
        />,
      ],
    },
  ];
  return (
    <Section id="agenda-students" title={t('agenda.sections.students')} help={t('agenda.sections.studentsHelp')}>
      {!!q.data?.unsyncedCourses.length && (
        <Alert severity="info" sx={{ mb: 1 }}>
          {t('agenda.sections.unsynced', { courses: q.data.unsyncedCourses.map((c) => c.description).join(', ') })}
        </Alert>
      )}
      <TableState error={q.isError} empty={q.data?.total === 0} emptyText={t('agenda.empty.students')} />
      {q.data?.total !== 0 && (
        <ServerDataGrid<AgendaStudent>
          label={t('agenda.sections.students')}
          rows={q.data?.rows ?? []}
          getRowId={(r) => r.enrolmentId}
          total={q.data?.total ?? 0}
          loading={q.isPending}
          columns={columns}
          disableRowSelectionOnClick
          {...grid}
        />
      )}
      {mail && <FollowUpMailDialog enrolmentIds={[mail.enrolmentId]} courseId={mail.courseId} recipient={`${mail.name} <${mail.email}>`} onClose={() => setMail(null)} />}
      {create && <CreateMassiveDialog course={{ id: create.courseId, description: create.course }} initialSelection={[create.enrolmentId]} onClose={() => setCreate(null)} />}
      {remind?.openTicketId && <ReminderDialog ticketId={remind.openTicketId} onClose={() => setRemind(null)} />}
    </Section>
  );
}

/** (3) My open tickets without an attempt for more than K days. */
function StaleTickets({ userId, onOpen }: { userId?: number; onOpen: (ticketId: number) => void }) {
  const { t } = useTranslation();
  const { params, grid } = useServerPage(10);
  const [days, setDays] = useState(3);
  const q = useAgendaTickets({ ...params, user_id: userId, days });
  const [attempt, setAttempt] = useState<AgendaTicket | null>(null);
  const columns: GridColDef<AgendaTicket>[] = [
    { field: 'ticketCode', headerName: t('agenda.columns.ticket'), width: 150 },
    { field: 'student', headerName: t('agenda.columns.student'), flex: 1, minWidth: 160 },
    { field: 'course', headerName: t('agenda.columns.course'), flex: 1, minWidth: 140 },
    { field: 'lastAttemptAt', headerName: t('agenda.columns.lastAttempt'), width: 150, valueGetter: (_v, r) => (r.lastAttemptAt ? chileDateTime(r.lastAttemptAt) : t('agenda.never')) },
    { field: 'daysWithoutAttempt', headerName: t('agenda.columns.days'), width: 120, sortable: false },
    {
      field: 'actions',
      type: 'actions',
      headerName: t('common.actions'),
      width: 100,
      getActions: ({ row }) => [
        <GridActionsCellItem key="open" icon={<VisibilityIcon />} label={t('agenda.actions.openTicket', { code: row.ticketCode })} onClick={() => onOpen(row.id)} />,
        <GridActionsCellItem key="attempt" icon={<PhoneInTalkIcon />} label={t('agenda.actions.logAttempt', { code: row.ticketCode })} onClick={() => setAttempt(row)} />,
      ],
    },
  ];
  return (
    <Section id="agenda-tickets" title={t('agenda.sections.tickets')} help={t('agenda.sections.ticketsHelp', { days })}>
      <TextField
        select
        size="small"
        label={t('agenda.staleDays')}
        value={days}
        onChange={(e) => setDays(Number(e.target.value))}
        sx={{ mb: 1, minWidth: 200 }}
      >
        {[1, 3, 7, 14, 30].map((d) => (
          <MenuItem key={d} value={d}>
            {t('agenda.daysOption', { count: d })}
          </MenuItem>
        ))}
      </TextField>
      <TableState error={q.isError} empty={q.data?.total === 0} emptyText={t('agenda.empty.tickets')} />
      {q.data?.total !== 0 && (
        <ServerDataGrid<AgendaTicket> label={t('agenda.sections.tickets')} rows={q.data?.rows ?? []} total={q.data?.total ?? 0} loading={q.isPending} columns={columns} disableRowSelectionOnClick {...grid} />
      )}
      {attempt && <LogAttemptDialog ticketId={attempt.id} ticketCode={attempt.ticketCode} onClose={() => setAttempt(null)} />}
    </Section>
  );
}

/** Administrators: per operator, reminders due and overdue, open tickets, at-risk students; reassign one operator's work. */
function Workload({ onPick }: { onPick: (userId: number) => void }) {
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

/** The caller's own morning digest by e-mail: their due and overdue reminders and at-risk students, each morning. */
function DigestSwitch() {
  const { t } = useTranslation();
  const notify = useNotify();
  const digest = useDigest(true);
  const save = useSaveDigest();
  return (
    <FormControlLabel
      control={
        <Switch
          checked={digest.data ?? false}
          disabled={digest.isPending || save.isPending}
          onChange={async (e) => {
            try {
              notify((await save.mutateAsync(e.target.checked)).message);
            } catch (err) {
              notify(err instanceof ApiError ? err.message : t('common.error'), 'warning');
            }
          }}
        />
      }
      label={t('agenda.digest')}
    />
  );
}

/** Mi agenda (`/my/agenda`): who to contact today, and why. */
export default function AgendaPage() {
  const { t } = useTranslation();
  const session = useSession();
  const admin = isAdminLike(session.role);
  const tutor = session.role === 'tutor';
  const staff = useStaff(admin);
  const [userId, setUserId] = useState<number | undefined>(undefined);
  const [openId, setOpenId] = useTicketParam();
  const [settings, setSettings] = useState(false);
  const open = (id: number) => setOpenId(id);
  const picker = admin && (
    <TextField select size="small" label={t('agenda.operator')} value={staff.data?.length ? (userId ?? session.user?.id ?? '') : ''} onChange={(e) => setUserId(Number(e.target.value))} sx={{ minWidth: 240 }}>
      {(staff.data ?? []).map((s) => (
        <MenuItem key={s.id} value={s.id}>
          {s.name}
        </MenuItem>
      ))}
    </TextField>
  );
  return (
    <PageCard title={t('agenda.title')} icon={<EventNoteIcon />}>
      <Stack direction={{ xs: 'column', md: 'row' }} spacing={2} sx={{ alignItems: { md: 'center' }, mt: 1 }}>
        <Typography color="text.secondary" sx={{ flex: 1 }}>
          {tutor ? t('agenda.tutorIntro') : t('agenda.intro')}
        </Typography>
        {!tutor && <DigestSwitch />}
        {admin && (
          <Button startIcon={<TuneIcon />} onClick={() => setSettings(true)}>
            {t('agenda.settings.open')}
          </Button>
        )}
        {picker}
      </Stack>
      {admin && <Workload onPick={setUserId} />}
      {!tutor && <DueReminders userId={userId} onOpen={open} />}
      <AtRiskStudents userId={userId} canWork={!tutor} onOpen={open} />
      {!tutor && <StaleTickets userId={userId} onOpen={open} />}
      {!tutor && <TicketDialog ticketId={openId} mode="work" onClose={() => setOpenId(null)} onOpen={open} />}
      {settings && <CourseSettingsDialog onClose={() => setSettings(false)} />}
    </PageCard>
  );
}
