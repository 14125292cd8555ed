import { chileDateTime, lastAccessGroup, type AgendaStudent } from '@sigaf/contract';
import AddTaskIcon from '@mui/icons-material/AddTask';
import AlarmAddIcon from '@mui/icons-material/AlarmAdd';
import BadgeIcon from '@mui/icons-material/Badge';
import LightbulbOutlinedIcon from '@mui/icons-material/LightbulbOutlined';
import MailIcon from '@mui/icons-material/Mail';
import VisibilityIcon from '@mui/icons-material/Visibility';
import {
  Alert,
  Chip,
  FormControlLabel,
  IconButton,
  Stack,
  Switch,
  Tooltip,
  Typography,
} from '@mui/material';
import { GridActionsCellItem, type GridColDef } from '@mui/x-data-grid';
import { useQueries } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ServerDataGrid, useServerPage } from '../../components/ServerDataGrid';
import { StateChip } from '../../components/StateChip';
import { useFitColumns } from '../../components/useFitColumns';
import { useFormat } from '../../lib/format';
import { FollowUpMailDialog } from '../follow-up/FollowUpMailDialog';
import { StudentDetailDrawer } from '../follow-up/StudentDetail';
import { CreateMassiveDialog } from '../tickets/CreateTickets';
import { similarQuery } from '../outcomes/api';
import { studentSuggestion } from '../outcomes/format';
import { useAgendaStudents } from './api';
import { Section, TableState } from './parts';
import { ReminderDialog } from '../reminders/ReminderDialog';

/**
 * A reason's chip: a resigning student in his state's look, no access in the look of its group on
 * the dashboard's last-access chart (never grey), behind in the theme's blue (not a state).
 */
function ReasonChip({
  row,
  rule,
  label,
}: {
  row: AgendaStudent;
  rule: AgendaStudent['rules'][number];
  label: string;
}) {
  if (rule === 'resigning')
    return <StateChip kind="studentState" stateKey="resigning" label={label} />;
  if (rule === 'inactive')
    return (
      <StateChip
        kind="lastAccess"
        stateKey={lastAccessGroup(row.daysWithoutAccess)}
        label={label}
      />
    );
  return <Chip size="small" color="info" label={label} />;
}

/**
 * (2) Students at risk with no recent contact attempt: each row says which rule matched. Staff may
 * narrow it to the students with an open ticket of the agenda's operator: the workload table's count.
 */
export function AtRiskStudents({
  userId,
  canWork,
  onOpen,
  ownOpen = false,
  onOwnOpen,
}: {
  userId?: number;
  canWork: boolean;
  onOpen: (ticketId: number) => void;
  ownOpen?: boolean;
  onOwnOpen?: (on: boolean) => void;
}) {
  const { t } = useTranslation();
  const f = useFormat();
  const { params, grid } = useServerPage(10);
  const q = useAgendaStudents({
    ...params,
    user_id: userId,
    own_open_tickets: ownOpen || undefined,
  });
  // Each row's suggestion: its course's figures for similar students (read once per course), for
  // the staff who contact students (a tutor may not read them: no request refused).
  const courseIds = canWork ? [...new Set((q.data?.rows ?? []).map((r) => r.courseId))] : [];
  const similar = useQueries({ queries: courseIds.map((id) => similarQuery(id)) });
  const suggestionFor = (row: AgendaStudent) =>
    studentSuggestion(t, row, similar[courseIds.indexOf(row.courseId)]?.data);
  const [mail, setMail] = useState<AgendaStudent | null>(null);
  const [create, setCreate] = useState<AgendaStudent | null>(null);
  const [remind, setRemind] = useState<AgendaStudent | null>(null);
  const [card, setCard] = useState<AgendaStudent | null>(null);
  // Sized to fit a 1366×768 screen beside the menu (about 1,000 px) once the progress (which the
  // reason's chip also gives) steps aside; the classroom goes under the course.
  const ruleLabel = (row: AgendaStudent, r: AgendaStudent['rules'][number]) =>
    t(`agenda.rules.${r === 'inactive' && row.lastAccess === null ? 'neverAccessed' : r}`, {
      days: row.daysWithoutAccess ?? 0,
      progress: row.progress ?? 0,
      expected: row.expectedProgress ?? 0,
    });
  const columns: GridColDef<AgendaStudent>[] = [
    {
      field: 'name',
      headerName: t('agenda.columns.student'),
      flex: 1.2,
      minWidth: 170,
      // On a narrow screen the course and the reason columns give way: they go under the name.
      renderCell: ({ row }) => {
        const hidden = fit.columnVisibilityModel;
        const under = [
          ...(hidden.course === false ? [row.course] : []),
          ...(hidden.rules === false ? row.rules.map((r) => ruleLabel(row, r)) : []),
        ];
        if (!under.length) return row.name;
        return (
          <Stack sx={{ justifyContent: 'center', height: '100%', lineHeight: 1.3 }}>
            <span>{row.name}</span>
            <Typography variant="caption" sx={{ color: 'text.secondary' }} noWrap>
              {under.join(' · ')}
            </Typography>
          </Stack>
        );
      },
    },
    { field: 'rut', headerName: t('agenda.columns.rut'), width: 105, sortable: false },
    {
      field: 'course',
      headerName: t('agenda.columns.course'),
      flex: 1,
      minWidth: 150,
      valueGetter: (_v, r) => (r.classroom ? `${r.course} · ${r.classroom}` : r.course),
    },
    {
      field: 'rules',
      headerName: t('agenda.columns.why'),
      width: 190,
      sortable: false,
      renderCell: ({ row, hasFocus, tabIndex }) => (
        <Stack
          direction="row"
          sx={{ alignItems: 'center', height: '100%', flexWrap: 'wrap', gap: 0.5 }}
        >
          {row.rules.map((r) => (
            <ReasonChip key={r} row={row} rule={r} label={ruleLabel(row, r)} />
          ))}
          <SuggestionButton text={suggestionFor(row)} hasFocus={hasFocus} tabIndex={tabIndex} />
        </Stack>
      ),
    },
    {
      field: 'progress',
      headerName: t('agenda.columns.progress'),
      width: 80,
      valueGetter: (_v, r) => f.percent(r.progress),
    },
    {
      field: 'lastAccess',
      headerName: t('agenda.columns.lastAccess'),
      width: 135,
      valueGetter: (_v, r) => (r.lastAccess ? chileDateTime(r.lastAccess) : t('agenda.never')),
    },
    {
      field: 'lastAttemptAt',
      headerName: t('agenda.columns.lastAttempt'),
      width: 135,
      valueGetter: (_v, r) =>
        r.lastAttemptAt ? chileDateTime(r.lastAttemptAt) : t('agenda.never'),
    },
    {
      field: 'actions',
      type: 'actions',
      headerName: t('common.actions'),
      width: 100,
      // "Ver ficha" and the row's main step in sight; the rest in the row's menu.
      getActions: ({ row }) => [
        <GridActionsCellItem
          key="card"
          icon={<BadgeIcon />}
          label={t('agenda.actions.card', { name: row.name })}
          onClick={() => setCard(row)}
        />,
        ...(canWork && row.openTicketId
          ? [
              <GridActionsCellItem
                key="open"
                icon={<VisibilityIcon />}
                label={t('agenda.actions.openStudentTicket', { name: row.name })}
                onClick={() => onOpen(row.openTicketId!)}
              />,
              <GridActionsCellItem
                key="remind"
                showInMenu
                icon={<AlarmAddIcon />}
                label={t('agenda.actions.schedule', { name: row.name })}
                onClick={() => setRemind(row)}
              />,
            ]
          : []),
        ...(canWork && !row.openTicketId
          ? [
              <GridActionsCellItem
                key="create"
                icon={<AddTaskIcon />}
                label={t('agenda.actions.createTicket', { name: row.name })}
                onClick={() => setCreate(row)}
              />,
            ]
          : []),
        // Staff write through SIGAF's outbox; a tutor (who sends no mail through SIGAF) opens their own mail program.
        <GridActionsCellItem
          key="mail"
          showInMenu
          icon={<MailIcon />}
          label={t('agenda.actions.mail', { name: row.name })}
          onClick={() =>
            canWork
              ? setMail(row)
              : window.open(`mailto:${encodeURIComponent(row.email ?? '')}`, '_self')
          }
          disabled={!row.email}
        />,
      ],
    },
  ];
  // Narrower than that (a phone), the dates give way next; the column menu shows any of them again.
  const fit = useFitColumns(columns, {
    remember: 'agenda-students',
    hideFirst: ['progress', 'lastAttemptAt', 'lastAccess', 'course', 'rut', 'rules'],
  });
  return (
    <Section
      id="agenda-students"
      title={t('agenda.sections.students')}
      help={t('agenda.sections.studentsHelp')}
    >
      {onOwnOpen && (
        <FormControlLabel
          control={<Switch checked={ownOpen} onChange={(e) => onOwnOpen(e.target.checked)} />}
          label={t('agenda.ownOpenTickets')}
          data-testid="agenda-own-open"
        />
      )}
      {!!q.data?.unsyncedCourses.length && (
        <Alert severity="info" sx={{ mb: 1 }}>
          {t('agenda.sections.unsynced', {
            courses: q.data.unsyncedCourses.map((c) => c.description).join(', '),
          })}
        </Alert>
      )}
      <TableState
        error={q.isError}
        empty={q.data?.total === 0}
        emptyText={t('agenda.empty.students')}
      />
      {q.data?.total !== 0 && (
        <ServerDataGrid<AgendaStudent>
          label={t('agenda.sections.students')}
          rows={q.data?.rows ?? []}
          getRowId={(r) => r.enrolmentId}
          total={q.data?.total ?? 0}
          loading={q.isPending}
          {...fit}
          disableRowSelectionOnClick
          {...grid}
        />
      )}
      {mail && (
        <FollowUpMailDialog
          enrolmentIds={[mail.enrolmentId]}
          courseId={mail.courseId}
          recipient={`${mail.name} <${mail.email}>`}
          onClose={() => setMail(null)}
        />
      )}
      {create && (
        <CreateMassiveDialog
          course={{ id: create.courseId, description: create.course }}
          initialSelection={[create.enrolmentId]}
          studentName={create.name}
          onClose={() => setCreate(null)}
        />
      )}
      {remind?.openTicketId && (
        <ReminderDialog ticketId={remind.openTicketId} onClose={() => setRemind(null)} />
      )}
      {card && (
        <StudentDetailDrawer
          enrolmentId={card.enrolmentId}
          canWork={canWork}
          onClose={() => setCard(null)}
          onOpenTicket={() => {
            const row = card;
            setCard(null);
            if (row.openTicketId) onOpen(row.openTicketId);
            else setCreate(row);
          }}
        />
      )}
    </Section>
  );
}

/**
 * A row's suggestion behind a light bulb: its tooltip on hover and on keyboard focus (the grid's
 * arrow keys land on it), its text read out as the button's name.
 */
function SuggestionButton({
  text,
  hasFocus,
  tabIndex,
}: {
  text: string | null;
  hasFocus: boolean;
  tabIndex: 0 | -1;
}) {
  const ref = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (hasFocus) ref.current?.focus();
  }, [hasFocus]);
  if (!text) return null;
  return (
    <Tooltip title={text}>
      <IconButton ref={ref} size="small" tabIndex={tabIndex} aria-label={text}>
        <LightbulbOutlinedIcon fontSize="small" color="info" />
      </IconButton>
    </Tooltip>
  );
}
