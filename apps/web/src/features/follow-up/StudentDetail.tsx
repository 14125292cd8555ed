import CloseIcon from '@mui/icons-material/Close';
import ConfirmationNumberIcon from '@mui/icons-material/ConfirmationNumber';
import OpenInNewIcon from '@mui/icons-material/OpenInNew';
import { chileDateTime, FOLLOW_UP_STATUSES, type FollowUpStudent } from '@sigaf/contract';
import { StateChip } from '../../components/StateChip';
import { useFormat } from '../../lib/format';
import {
  Alert,
  Box,
  Button,
  Chip,
  CircularProgress,
  Drawer,
  IconButton,
  Link,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  Typography,
} from '@mui/material';
import type { TFunction } from 'i18next';
import { Link as RouterLink } from 'react-router';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../lib/api';
import { EmailLink } from '../../components/ContactLinks';
import { PhoneContact, type ContactTarget } from '../tickets/ContactActions';
import { LogContact } from '../attempts/LogContact';
import { useStudentDetail, type StudentDetail as StudentDetailData } from './api';
import { useCatalogueText } from '../../lib/catalogue';
import { serverText } from '../../lib/serverText';

const STAGE_KEYS = FOLLOW_UP_STATUSES;

/**
 * A student's state as the summary cards count it: not yet confirmed by Moodle ("Sin
 * sincronizar", outside the cards), withdrawn or withdrawing, never entered the course
 * ("Inactivo", the "Nunca han ingresado" card) or active (the "Han ingresado" card).
 */
export function StatusChip({
  student,
}: {
  student: Pick<FollowUpStudent, 'stage' | 'synced' | 'lastAccess' | 'suspended'>;
}) {
  const { t } = useTranslation();
  if (!student.synced)
    return <Chip size="small" variant="outlined" label={t('followUp.status.unsynced')} />;
  // The state the charts and exports count (a student who never signed in is active until the
  // rules say otherwise; "Último acceso" says "Nunca"); a suspension in Moodle is said beside it.
  const stage = STAGE_KEYS[Math.min(2, Math.max(0, student.stage))]!;
  const state = (
    <StateChip kind="studentState" stateKey={stage} label={t(`followUp.status.${stage}`)} />
  );
  if (!student.suspended) return state;
  return (
    <Stack direction="row" spacing={0.5} sx={{ alignItems: 'center' }}>
      {state}
      <Chip
        size="small"
        color="warning"
        variant="outlined"
        label={t('followUp.status.suspended')}
      />
    </Stack>
  );
}

/** "Nunca", "Hoy", "Hace N días" (the date in the tooltip). */
export function lastAccessText(
  s: Pick<FollowUpStudent, 'lastAccess' | 'daysWithoutAccess'>,
  t: TFunction,
): string {
  if (!s.lastAccess || s.daysWithoutAccess === null) return t('followUp.access.never');
  if (s.daysWithoutAccess === 0) return t('followUp.access.today');
  return t('followUp.access.daysAgo', { count: s.daysWithoutAccess });
}

function Field({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <>
      <Typography component="dt" variant="body2" sx={{ fontWeight: 700 }}>
        {label}
      </Typography>
      <Typography component="dd" variant="body2" sx={{ m: 0 }}>
        {children}
      </Typography>
    </>
  );
}

/** Whom a call or a WhatsApp message from the card goes to. */
const target = ({ student: s, course }: StudentDetailData): ContactTarget => ({
  enrolmentId: s.id,
  course,
  name: s.name,
  lastName: s.lastName,
  rut: s.rut,
  classroom: s.classroom,
});

/** One student of the follow-up: data, activities with status and grade, ticket history; a ticket worker may open a ticket. */
export function StudentDetailDrawer({
  enrolmentId,
  canWork,
  onClose,
  onOpenTicket,
}: {
  enrolmentId: number;
  canWork: boolean;
  onClose: () => void;
  onOpenTicket: (id: number) => void;
}) {
  const { t } = useTranslation();
  const cat = useCatalogueText();
  const f = useFormat();
  const detail = useStudentDetail(enrolmentId);
  const d = detail.data;
  const s = d?.student;
  const tickets = d?.tickets.collections.map((c) => c.properties) ?? [];
  return (
    <Drawer
      anchor="right"
      open
      onClose={onClose}
      sx={{ zIndex: (theme) => theme.zIndex.modal }}
      slotProps={{
        paper: {
          sx: { width: { xs: '100%', md: 720 }, p: 2 },
          role: 'dialog',
          'aria-labelledby': 'student-detail-title',
        } as object,
      }}
    >
      <Stack direction="row" sx={{ alignItems: 'center', mb: 1 }}>
        <Typography
          id="student-detail-title"
          component="h2"
          variant="h6"
          sx={{ flex: 1, color: 'primary.main', fontWeight: 700 }}
        >
          {s
            ? [s.name, s.lastName, s.motherLastName].filter(Boolean).join(' ')
            : t('followUp.detail.title')}
        </Typography>
        <IconButton onClick={onClose} aria-label={t('common.close')}>
          <CloseIcon />
        </IconButton>
      </Stack>
      {detail.isPending && (
        <Box sx={{ display: 'flex', justifyContent: 'center', py: 4 }}>
          <CircularProgress aria-label={t('followUp.detail.loading')} />
        </Box>
      )}
      {detail.isError && (
        <Alert severity="error">
          {detail.error instanceof ApiError ? detail.error.message : t('common.loadError')}
        </Alert>
      )}
      {d && s && (
        <>
          <Stack
            direction="row"
            spacing={1}
            sx={{ alignItems: 'center', flexWrap: 'wrap', mb: 2 }}
            useFlexGap
          >
            <StatusChip student={s} />
            {s.progress === null ? (
              <Chip
                size="small"
                variant="outlined"
                label={t('followUp.detail.noProgress')}
                title={t('followUp.detail.noProgressWhy')}
              />
            ) : (
              <Chip
                size="small"
                variant="outlined"
                label={t('followUp.detail.progress', {
                  value: f.percent(s.progress),
                  graded: s.graded,
                  expected: s.expected,
                })}
              />
            )}
            <Chip
              size="small"
              variant="outlined"
              label={t('followUp.detail.form', { form: s.form })}
            />
            <Box sx={{ flex: 1 }} />
            {canWork && (
              <Button
                variant="contained"
                startIcon={<ConfirmationNumberIcon />}
                onClick={() => onOpenTicket(s.id)}
              >
                {t('followUp.detail.openTicket')}
              </Button>
            )}
          </Stack>
          <Box
            component="dl"
            sx={{
              display: 'grid',
              gridTemplateColumns: 'max-content 1fr',
              columnGap: 2,
              rowGap: 0.5,
              m: 0,
            }}
          >
            <Field label={t('followUp.columns.rut')}>{s.rut}</Field>
            <Field label={t('followUp.columns.email')}>
              {s.email ? <EmailLink address={s.email} /> : t('followUp.detail.noEmail')}
            </Field>
            <Field label={t('followUp.columns.phone')}>
              {s.phone ? (
                <PhoneContact
                  number={s.phone}
                  target={target(d)}
                  logContact={
                    canWork
                      ? (channel, done) => (
                          <LogContact channel={channel} target={target(d)} onClose={done} />
                        )
                      : undefined
                  }
                />
              ) : (
                t('followUp.detail.noPhone')
              )}
            </Field>
            <Field label={t('followUp.detail.course')}>{d.course.description}</Field>
            <Field label={t('followUp.columns.classroom')}>
              {s.classroom ?? t('followUp.noClassroom')}
            </Field>
            <Field label={t('followUp.columns.lastAccess')}>
              {lastAccessText(s, t)}
              {s.lastAccess ? ` (${f.dateTime(s.lastAccess)})` : ''}
            </Field>
          </Box>

          <Typography
            component="h3"
            variant="subtitle1"
            sx={{ fontWeight: 700, color: 'primary.main', mt: 3, mb: 1 }}
          >
            {t('followUp.detail.activities')}
          </Typography>
          {d.activities.length === 0 ? (
            <Typography color="text.secondary">{t('followUp.detail.noActivities')}</Typography>
          ) : (
            <Table size="small" aria-label={t('followUp.detail.activities')}>
              <TableHead>
                <TableRow>
                  <TableCell>{t('followUp.detail.section')}</TableCell>
                  <TableCell>{t('followUp.detail.activity')}</TableCell>
                  <TableCell>{t('followUp.detail.state')}</TableCell>
                  <TableCell align="right">{t('followUp.detail.grade')}</TableCell>
                </TableRow>
              </TableHead>
              <TableBody>
                {d.activities.map((a) => (
                  <TableRow
                    key={a.activityId}
                    sx={
                      a.counts ? undefined : { '& .MuiTableCell-root': { color: 'text.secondary' } }
                    }
                  >
                    <TableCell>{a.section ?? '—'}</TableCell>
                    <TableCell>
                      {a.description}
                      {a.counts && (
                        <Typography
                          component="span"
                          variant="caption"
                          color="primary"
                          sx={{ ml: 1 }}
                        >
                          {t('followUp.detail.counts')}
                        </Typography>
                      )}
                    </TableCell>
                    <TableCell>
                      {a.statusMoodle ? serverText(t, a.statusMoodle) : t('followUp.detail.noRow')}
                    </TableCell>
                    <TableCell align="right">
                      {a.grade !== null ? f.grade(a.grade) : (a.qualificationMoodle ?? '—')}
                    </TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          )}

          <Typography
            component="h3"
            variant="subtitle1"
            sx={{ fontWeight: 700, color: 'primary.main', mt: 3, mb: 1 }}
          >
            {t('followUp.detail.tickets')}
          </Typography>
          {tickets.length === 0 ? (
            <Typography color="text.secondary">{t('followUp.detail.noTickets')}</Typography>
          ) : (
            <Table size="small" aria-label={t('followUp.detail.tickets')}>
              <TableHead>
                <TableRow>
                  <TableCell>{t('followUp.detail.code')}</TableCell>
                  <TableCell>{t('followUp.detail.created')}</TableCell>
                  <TableCell>{t('followUp.detail.ticketStatus')}</TableCell>
                  <TableCell>{t('followUp.detail.motive')}</TableCell>
                  <TableCell align="right">{t('followUp.detail.attempts')}</TableCell>
                </TableRow>
              </TableHead>
              <TableBody>
                {tickets.map((k) => (
                  <TableRow key={k.id}>
                    <TableCell>
                      {canWork ? (
                        <Link
                          component={RouterLink}
                          to={`/my/ticket?course=${d.course.id}&status=all&search=${encodeURIComponent(k.ticketCode)}&ticket=${k.id}`}
                        >
                          {k.ticketCode}{' '}
                          <OpenInNewIcon sx={{ fontSize: 14, verticalAlign: 'middle' }} />
                        </Link>
                      ) : (
                        k.ticketCode
                      )}
                    </TableCell>
                    <TableCell>{`${k.createdAt} ${k.createdTime}`}</TableCell>
                    <TableCell>{cat(k.statusTicket.description)}</TableCell>
                    <TableCell>{cat(k.motiveTicket.description)}</TableCell>
                    <TableCell align="right">{k.attempts}</TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          )}
          <Typography variant="subtitle1" sx={{ fontWeight: 600, mt: 3, mb: 0.5 }}>
            {t('followUp.detail.mails')}
          </Typography>
          {d.mails.length === 0 ? (
            <Typography color="text.secondary">{t('followUp.detail.noMails')}</Typography>
          ) : (
            <>
              <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
                {t('followUp.detail.mailsContact')}
              </Typography>
              <Table size="small" aria-label={t('followUp.detail.mails')}>
                <TableHead>
                  <TableRow>
                    <TableCell>{t('followUp.detail.mailDate')}</TableCell>
                    <TableCell>{t('followUp.detail.mailSubject')}</TableCell>
                    <TableCell>{t('followUp.detail.ticketStatus')}</TableCell>
                  </TableRow>
                </TableHead>
                <TableBody>
                  {d.mails.map((m) => (
                    <TableRow key={m.id}>
                      <TableCell>{chileDateTime(m.createdAt)}</TableCell>
                      <TableCell sx={{ overflowWrap: 'anywhere' }}>{m.subject}</TableCell>
                      <TableCell>{t(`mail.status.${m.status}`)}</TableCell>
                    </TableRow>
                  ))}
                </TableBody>
              </Table>
            </>
          )}
        </>
      )}
    </Drawer>
  );
}
