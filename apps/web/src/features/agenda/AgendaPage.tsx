import { chileDateTime, isAdminLike, type AgendaTicket, type Reminder } from '@sigaf/contract';
import EventNoteIcon from '@mui/icons-material/EventNote';
import PhoneInTalkIcon from '@mui/icons-material/PhoneInTalk';
import SnoozeIcon from '@mui/icons-material/Snooze';
import VisibilityIcon from '@mui/icons-material/Visibility';
import {
  Button,
  FormControlLabel,
  MenuItem,
  Stack,
  Switch,
  TextField,
  Typography,
} from '@mui/material';
import TuneIcon from '@mui/icons-material/Tune';
import { GridActionsCellItem, type GridColDef } from '@mui/x-data-grid';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { PageCard } from '../../components/PageCard';
import { ServerDataGrid, useServerPage } from '../../components/ServerDataGrid';
import { useFitColumns } from '../../components/useFitColumns';
import { useNotify } from '../../components/Snackbar';
import { ApiError } from '../../lib/api';
import { useSession } from '../../lib/session';
import { TicketDialog, useTicketParam } from '../tickets/TicketDialog';
import { useStaff } from '../reminders/api';
import { ReminderDialog } from '../reminders/ReminderDialog';
import { ReminderStateChip } from '../reminders/ReminderList';
import { useAgendaReminders, useAgendaTickets, useDigest, useSaveDigest } from './api';
import { AtRiskStudents } from './AtRiskStudents';
import { AgendaSuggestions } from './AgendaSuggestions';
import { CourseSettingsDialog } from './CourseSettingsDialog';
import { LogAttemptDialog } from '../attempts/LogAttemptDialog';
import { StudentPhone } from './StudentPhone';
import { Section, TableState } from './parts';
import { Workload } from './Workload';

/** (1) Reminders due today and overdue: open the ticket, log the attempt here, snooze. */
function DueReminders({ userId, onOpen }: { userId?: number; onOpen: (ticketId: number) => void }) {
  const { t } = useTranslation();
  const { params, grid } = useServerPage(10);
  const q = useAgendaReminders({ ...params, user_id: userId });
  const [attempt, setAttempt] = useState<Reminder | null>(null);
  const [snooze, setSnooze] = useState<Reminder | null>(null);
  const columns: GridColDef<Reminder>[] = [
    {
      field: 'due_at',
      headerName: t('agenda.columns.due'),
      width: 150,
      valueGetter: (_v, r) => chileDateTime(r.dueAt),
    },
    {
      field: 'state',
      headerName: t('agenda.columns.state'),
      width: 110,
      renderCell: ({ row }) => <ReminderStateChip reminder={row} />,
    },
    {
      field: 'ticket',
      headerName: t('agenda.columns.ticket'),
      width: 150,
      valueGetter: (_v, r) => r.ticketCode,
    },
    {
      field: 'student',
      headerName: t('agenda.columns.student'),
      flex: 1,
      minWidth: 160,
      sortable: false,
    },
    {
      field: 'course',
      headerName: t('agenda.columns.course'),
      flex: 1,
      minWidth: 140,
      sortable: false,
    },
    {
      field: 'comment',
      headerName: t('agenda.columns.comment'),
      flex: 1,
      minWidth: 140,
      sortable: false,
    },
    {
      field: 'actions',
      type: 'actions',
      headerName: t('common.actions'),
      width: 130,
      getActions: ({ row }) => [
        <GridActionsCellItem
          key="open"
          icon={<VisibilityIcon />}
          label={t('agenda.actions.openTicket', { code: row.ticketCode })}
          onClick={() => onOpen(row.ticketId)}
        />,
        <GridActionsCellItem
          key="attempt"
          icon={<PhoneInTalkIcon />}
          label={t('agenda.actions.logAttempt', { code: row.ticketCode })}
          onClick={() => setAttempt(row)}
        />,
        <GridActionsCellItem
          key="snooze"
          icon={<SnoozeIcon />}
          label={t('agenda.actions.snooze', { code: row.ticketCode })}
          onClick={() => setSnooze(row)}
        />,
      ],
    },
  ];
  const fit = useFitColumns(columns, {
    remember: 'agenda-reminders',
    hideFirst: ['comment', 'course', 'state', 'ticket', 'due_at'],
  });
  return (
    <Section
      id="agenda-reminders"
      title={t('agenda.sections.reminders')}
      help={t('agenda.sections.remindersHelp')}
    >
      <TableState
        error={q.isError}
        empty={q.data?.total === 0}
        emptyText={t('agenda.empty.reminders')}
      />
      {q.data?.total !== 0 && (
        <ServerDataGrid<Reminder>
          label={t('agenda.sections.reminders')}
          rows={q.data?.rows ?? []}
          total={q.data?.total ?? 0}
          loading={q.isPending}
          {...fit}
          getRowClassName={({ row }) => (row.overdue ? 'agenda-overdue' : '')}
          sx={{
            '& .agenda-overdue': {
              bgcolor: 'rgba(211,47,47,0.08)',
              borderLeft: 4,
              borderColor: 'error.main',
            },
          }}
          disableRowSelectionOnClick
          {...grid}
        />
      )}
      {attempt && (
        <LogAttemptDialog
          ticketId={attempt.ticketId}
          ticketCode={attempt.ticketCode}
          student={attempt.student}
          contact={(made) => <StudentPhone enrolmentId={attempt.enrolmentId} onContact={made} />}
          onClose={() => setAttempt(null)}
        />
      )}
      {snooze && <ReminderDialog reminder={snooze} snooze onClose={() => setSnooze(null)} />}
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
    {
      field: 'lastAttemptAt',
      headerName: t('agenda.columns.lastAttempt'),
      width: 150,
      valueGetter: (_v, r) =>
        r.lastAttemptAt ? chileDateTime(r.lastAttemptAt) : t('agenda.never'),
    },
    {
      field: 'daysWithoutAttempt',
      headerName: t('agenda.columns.days'),
      width: 120,
      sortable: false,
    },
    {
      field: 'actions',
      type: 'actions',
      headerName: t('common.actions'),
      width: 100,
      getActions: ({ row }) => [
        <GridActionsCellItem
          key="open"
          icon={<VisibilityIcon />}
          label={t('agenda.actions.openTicket', { code: row.ticketCode })}
          onClick={() => onOpen(row.id)}
        />,
        <GridActionsCellItem
          key="attempt"
          icon={<PhoneInTalkIcon />}
          label={t('agenda.actions.logAttempt', { code: row.ticketCode })}
          onClick={() => setAttempt(row)}
        />,
      ],
    },
  ];
  const fit = useFitColumns(columns, {
    remember: 'agenda-tickets',
    hideFirst: ['course', 'lastAttemptAt', 'daysWithoutAttempt', 'ticketCode'],
  });
  return (
    <Section
      id="agenda-tickets"
      title={t('agenda.sections.tickets')}
      help={t('agenda.sections.ticketsHelp', { days })}
    >
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
      <TableState
        error={q.isError}
        empty={q.data?.total === 0}
        emptyText={t('agenda.empty.tickets')}
      />
      {q.data?.total !== 0 && (
        <ServerDataGrid<AgendaTicket>
          label={t('agenda.sections.tickets')}
          rows={q.data?.rows ?? []}
          total={q.data?.total ?? 0}
          loading={q.isPending}
          {...fit}
          disableRowSelectionOnClick
          {...grid}
        />
      )}
      {attempt && (
        <LogAttemptDialog
          ticketId={attempt.id}
          ticketCode={attempt.ticketCode}
          student={attempt.student}
          contact={(made) => <StudentPhone enrolmentId={attempt.enrolmentId} onContact={made} />}
          onClose={() => setAttempt(null)}
        />
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
  /** The at-risk students narrowed to those the workload table counts (opened from its row). */
  const [ownOpen, setOwnOpen] = useState(false);
  const [openId, setOpenId] = useTicketParam();
  const [settings, setSettings] = useState(false);
  const open = (id: number) => setOpenId(id);
  const picker = admin && (
    <TextField
      select
      size="small"
      label={t('agenda.operator')}
      value={staff.data?.length ? (userId ?? session.user?.id ?? '') : ''}
      onChange={(e) => {
        setUserId(Number(e.target.value));
        setOwnOpen(false);
      }}
      sx={{ minWidth: 240 }}
    >
      {(staff.data ?? []).map((s) => (
        <MenuItem key={s.id} value={s.id}>
          {s.name}
        </MenuItem>
      ))}
    </TextField>
  );
  return (
    <PageCard title={t('agenda.title')} icon={<EventNoteIcon />}>
      {/* The controls wrap below the text rather than squeeze it (an administrator has three). */}
      <Stack
        direction="row"
        useFlexGap
        sx={{ alignItems: 'center', flexWrap: 'wrap', gap: 2, mt: 1 }}
      >
        <Typography
          color="text.secondary"
          data-testid="agenda-intro"
          sx={{ flex: '1 1 360px', minWidth: { xs: '100%', sm: 320 } }}
        >
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
      {admin && (
        <Workload
          onPick={(id) => {
            setUserId(id);
            setOwnOpen(true);
          }}
        />
      )}
      {!tutor && <DueReminders userId={userId} onOpen={open} />}
      {!tutor && <AgendaSuggestions userId={userId} />}
      <AtRiskStudents
        userId={userId}
        canWork={!tutor}
        onOpen={open}
        ownOpen={ownOpen}
        onOwnOpen={tutor ? undefined : setOwnOpen}
      />
      {!tutor && <StaleTickets userId={userId} onOpen={open} />}
      {!tutor && (
        <TicketDialog ticketId={openId} mode="work" onClose={() => setOpenId(null)} onOpen={open} />
      )}
      {settings && <CourseSettingsDialog onClose={() => setSettings(false)} />}
    </PageCard>
  );
}
