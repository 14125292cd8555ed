import { zodResolver } from '@hookform/resolvers/zod';
import CloseIcon from '@mui/icons-material/Close';
import LinkIcon from '@mui/icons-material/Link';
import LockIcon from '@mui/icons-material/Lock';
import MailIcon from '@mui/icons-material/Mail';
import { TICKET_MSG, type AttemptMedium } from '@sigaf/contract';
import {
  Alert,
  AlertTitle,
  Box,
  Button,
  Chip,
  Dialog,
  DialogActions,
  DialogContent,
  Divider,
  Grid,
  IconButton,
  LinearProgress,
  Skeleton,
  Stack,
  Tooltip,
  Typography,
  useMediaQuery,
  useTheme,
} from '@mui/material';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useSearchParams } from 'react-router';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { useDiscardGuard } from '../../components/useDiscardGuard';
import { useNotify } from '../../components/Snackbar';
import { ApiError } from '../../lib/api';
import {
  addAttempt,
  deleteAttempt,
  fetchTicket,
  updateTicket,
  type Ticket,
  type TicketDetail,
  type TicketUpdateBody,
} from './api';
import { useTicketLock } from './useTicketLock';
import { useSession } from '../../lib/session';
import { AttemptTimeline, PriorityChip, StudentTickets, TypeIcon } from './AttemptTimeline';
import { AttemptFields, TicketOptionFields } from './fields';
import { lockSince, stamp } from './format';
import {
  adminTicketSchema,
  attemptRequired,
  emptyAttempt,
  OPTION_FIELDS,
  ticketFormValues,
  workSchemaFor,
  type AdminTicketValues,
  type FormValues,
  type WorkTicketValues,
} from './schemas';
import { CHANNEL_MEDIUM, PhoneContact } from './ContactActions';
import { StudentCard } from './StudentCard';
import { StudentOutcomes } from '../outcomes/OutcomeLines';
import { TicketHistory } from './TicketHistory';
import { SendMailDialog } from '../mail';
import { TicketReminders } from '../reminders/TicketReminders';
import { Info, Section } from './TicketSections';
import { useCatalogueText } from '../../lib/catalogue';
import { serverText } from '../../lib/serverText';

export type TicketDialogMode = 'work' | 'admin';

/** The open ticket lives in the address (`?ticket=ID`): a link to it can be shared, and a reload opens it again. */
export function useTicketParam() {
  const [params, setParams] = useSearchParams();
  const raw = params.get('ticket');
  const id = raw && /^\d{1,10}$/.test(raw) ? Number(raw) : null;
  const set = useCallback(
    (next: number | null) =>
      setParams(
        (p) => {
          const q = new URLSearchParams(p);
          if (next) q.set('ticket', String(next));
          else q.delete('ticket');
          return q;
        },
        { replace: true },
      ),
    [setParams],
  );
  return [id, set] as const;
}

/** "Ver / Agregar contacto" (work) and the administration edit (admin) of one ticket, with its edit lock. */
export function TicketDialog({
  ticketId,
  mode,
  onClose,
  onOpen,
}: Props & { ticketId: number | null }) {
  return ticketId === null ? null : (
    <TicketEditor
      key={ticketId}
      ticketId={ticketId}
      mode={mode}
      onClose={onClose}
      onOpen={onOpen}
    />
  );
}

interface Props {
  mode: TicketDialogMode;
  onClose: () => void;
  /** Opens another ticket of the same student (this one's lock is released). */
  onOpen?: (ticketId: number) => void;
}

function TicketEditor({ ticketId, mode, onClose, onOpen }: Props & { ticketId: number }) {
  const { t } = useTranslation();
  const cat = useCatalogueText();
  const notify = useNotify();
  const queryClient = useQueryClient();
  const theme = useTheme();
  const fullScreen = useMediaQuery(theme.breakpoints.down('md'));
  const [ticket, setTicket] = useState<Ticket | null>(null);
  const [mailing, setMailing] = useState(false);
  const [details, setDetails] = useState<TicketDetail[]>([]);
  const [loading, setLoading] = useState(true);
  const [loadError, setLoadError] = useState<string | null>(null);
  /** Why the ticket is read-only (someone else holds the lock), or null. */
  const [blocked, setBlocked] = useState<string | null>(null);
  const [deleting, setDeleting] = useState<TicketDetail | null>(null);
  // A call or WhatsApp message started from the student's card: the new attempt's medium.
  const [medium, setMedium] = useState<AttemptMedium>();
  const { user } = useSession();
  const ticketRef = useRef<Ticket | null>(null);
  const form = useForm<FormValues>({
    // Working: the new attempt may be left empty when only the status, priority or operator change.
    resolver: ((values: FormValues, context: unknown, options: never) =>
      zodResolver(
        (mode === 'work'
          ? workSchemaFor(values, ticketRef.current && ticketFormValues(ticketRef.current))
          : adminTicketSchema) as never,
      )(values, context, options)) as never,
    defaultValues: { ...emptyAttempt },
    mode: 'onTouched',
  });
  const { control, handleSubmit, reset, getValues, setError, formState } = form;
  const onLockLost = useCallback(
    (message: string) => {
      setBlocked(message);
      notify(message, 'warning', 10_000);
    },
    [notify],
  );
  const lock = useTicketLock(ticketId, onLockLost);
  // An attempt marks the ticket's due reminders done: the bell and the agenda are asked again at once, not at their next poll.
  const refreshLists = () =>
    Promise.all(
      ['tickets', 'reminders', 'agenda'].map((key) =>
        queryClient.invalidateQueries({ queryKey: [key] }),
      ),
    );

  /** Reads the ticket (viewing takes no lock); someone else's lock makes it read-only. What was typed is kept. */
  const load = useCallback(async () => {
    setLoading(true);
    setLoadError(null);
    try {
      const full = await fetchTicket(ticketId);
      ticketRef.current = full.ticket;
      setTicket(full.ticket);
      setDetails(full.details);
      const other =
        full.ticket.lock && full.ticket.lock.user.id !== user?.id && !full.ticket.lock.expired
          ? full.ticket.lock
          : null;
      setBlocked(
        other
          ? t('tickets.lock.lockedBy', { name: other.user.name, since: lockSince(other) })
          : null,
      );
      reset({ ...getValues(), ...ticketFormValues(full.ticket) });
    } catch (err) {
      setLoadError(err instanceof ApiError ? err.message : t('common.loadError'));
    } finally {
      setLoading(false);
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps -- loads once per ticket; the form's functions are stable
  }, [ticketId]);

  useEffect(() => {
    void load();
  }, [load]);

  /** Editing starts: take the lock. Refused (someone else started first): read-only, what was typed is dropped. */
  const startEditing = useCallback(async (): Promise<boolean> => {
    try {
      await lock.acquire();
      return true;
    } catch (err) {
      const message = err instanceof ApiError ? err.message : t('common.error');
      if (err instanceof ApiError && err.status === 409) {
        setBlocked(message);
        if (ticketRef.current) reset({ ...emptyAttempt, ...ticketFormValues(ticketRef.current) });
      }
      notify(message, 'warning', 10_000);
      return false;
    }
  }, [lock, notify, reset, t]);

  // The first change in the form is the start of editing.
  useEffect(() => {
    const sub = form.watch((_values, info) => {
      if (info.type === 'change' && !lock.heldRef.current) void startEditing();
    });
    return () => sub.unsubscribe();
  }, [form, lock.heldRef, startEditing]);

  const leave = useCallback(() => {
    lock.release();
    onClose();
  }, [lock, onClose]);
  // A typed attempt or a changed option is not dropped without asking (Escape, ✕, Salir).
  const { close, guard } = useDiscardGuard(Boolean(ticket && !blocked) && formState.isDirty, leave);

  const save = handleSubmit(async (raw) => {
    if (!ticket || !(await startEditing())) return;
    let body: TicketUpdateBody;
    if (mode === 'work') {
      const v = raw as unknown as WorkTicketValues;
      body = {
        version: ticket.version,
        status_ticket_id: v.status_ticket_id,
        priority_ticket_id: v.priority_ticket_id,
        user_assigned_id: v.user_assigned_id,
      };
    } else {
      const v = raw as unknown as AdminTicketValues;
      body = { version: ticket.version, ...v };
    }
    let message: string;
    try {
      message = (await updateTicket(ticket.id, body)).message;
    } catch (err) {
      if (err instanceof ApiError && err.status === 409) {
        // Stale version or someone else's lock: say so and show the ticket as it is now.
        notify(err.message, 'warning', 10_000);
        await load();
        return;
      }
      if (err instanceof ApiError)
        for (const [f, m] of Object.entries(err.fieldErrors)) setError(f, { message: m[0] });
      notify(err instanceof ApiError ? err.message : t('common.error'), 'error');
      return;
    }
    lock.forget(); // the server frees the lock with the save
    const attempt = raw as unknown as Partial<{ status_detail_ticket_id: number; comment: string }>;
    if (mode === 'work' && attempt.status_detail_ticket_id && attempt.comment) {
      try {
        await addAttempt(ticket.id, {
          status_detail_ticket_id: attempt.status_detail_ticket_id,
          comment: attempt.comment,
          ...(medium ? { medium, direction: 'outgoing' as const } : {}),
        });
      } catch (err) {
        notify(
          t('tickets.dialog.attemptFailed', {
            message: err instanceof ApiError ? err.message : t('common.error'),
          }),
          'error',
          10_000,
        );
        void refreshLists();
        await load();
        return;
      }
    }
    notify(message || TICKET_MSG.updated);
    void refreshLists();
    onClose();
  });

  const removeAttempt = async () => {
    if (!deleting || !ticket) return;
    try {
      const res = await deleteAttempt(deleting.id);
      const full = await fetchTicket(ticket.id);
      setTicket(full.ticket);
      setDetails(full.details);
      notify(res.message || t('common.success'));
      void refreshLists();
    } catch (err) {
      notify(err instanceof ApiError ? err.message : t('common.error'), 'error');
    } finally {
      setDeleting(null);
    }
  };

  const copyLink = async () => {
    try {
      await navigator.clipboard.writeText(window.location.href);
      notify(t('tickets.dialog.linkCopied'), 'info');
    } catch {
      notify(window.location.href, 'info', 10_000);
    }
  };

  const editable = Boolean(ticket && !blocked);
  const busy = loading || formState.isSubmitting;
  const title = ticket
    ? t('tickets.dialog.title', { code: ticket.ticketCode })
    : t('tickets.dialog.loading');
  const enrolment = ticket?.courseRegisteredUser;

  return (
    <Dialog
      open
      onClose={formState.isSubmitting ? undefined : close}
      fullWidth
      maxWidth="lg"
      fullScreen={fullScreen}
      aria-labelledby="ticket-dialog-title"
    >
      <Box
        sx={{
          display: 'flex',
          alignItems: 'center',
          gap: 1.5,
          px: 3,
          py: 1.5,
          bgcolor: 'primary.main',
          color: 'white',
          flexWrap: 'wrap',
        }}
      >
        <Typography id="ticket-dialog-title" variant="h6" component="h2" sx={{ fontWeight: 600 }}>
          {title}
        </Typography>
        {ticket && <PriorityChip priority={ticket.priorityTicket} />}
        {ticket && (
          <Chip
            size="small"
            label={cat(ticket.statusTicket.description)}
            sx={{
              bgcolor: 'white',
              color: ticket.close ? 'text.secondary' : 'primary.main',
              fontWeight: 600,
            }}
          />
        )}
        {!editable && ticket && blocked && <LockIcon fontSize="small" aria-hidden />}
        <Box sx={{ flex: 1 }} />
        <Tooltip title={t('tickets.dialog.copyLink')}>
          <IconButton
            aria-label={t('tickets.dialog.copyLink')}
            onClick={() => void copyLink()}
            sx={{ color: 'white' }}
          >
            <LinkIcon />
          </IconButton>
        </Tooltip>
        <IconButton
          aria-label={t('common.close')}
          onClick={close}
          disabled={formState.isSubmitting}
          sx={{ color: 'white' }}
        >
          <CloseIcon />
        </IconButton>
      </Box>
      {busy ? <LinearProgress /> : <Box sx={{ height: 4 }} />}
      <DialogContent sx={{ pt: 3 }}>
        {loadError && <Alert severity="error">{loadError}</Alert>}
        {!ticket && !loadError && (
          <Stack spacing={2}>
            <Skeleton variant="rounded" height={120} />
            <Skeleton variant="rounded" height={220} />
          </Stack>
        )}
        {ticket && enrolment && (
          <Grid container spacing={3}>
            <Grid size={{ xs: 12, md: 5 }}>
              <Section title={t('tickets.student.title')}>
                <StudentCard
                  enrolment={enrolment}
                  phoneLink={(n) => (
                    <PhoneContact
                      number={n}
                      onContact={(channel) => setMedium(CHANNEL_MEDIUM[channel])}
                      target={{
                        enrolmentId: enrolment.id,
                        course: enrolment.course,
                        name: enrolment.registeredUser.name,
                        lastName: enrolment.registeredUser.lastName,
                        rut: enrolment.registeredUser.rut,
                        classroom: enrolment.classroom?.id ? enrolment.classroom.description : null,
                        ticketCode: ticket.ticketCode,
                      }}
                    />
                  )}
                  onEdited={
                    editable
                      ? (s) =>
                          setTicket({
                            ...ticket,
                            courseRegisteredUser: {
                              ...enrolment,
                              registeredUser: { ...enrolment.registeredUser, ...s },
                            },
                          })
                      : undefined
                  }
                />
                <StudentOutcomes ticketId={ticket.id} version={details.length} />
              </Section>
              <Section title={t('tickets.history.title')}>
                <StudentTickets
                  enrolmentId={enrolment.id}
                  exclude={ticket.id}
                  onOpen={
                    onOpen && !formState.isSubmitting ? (other) => onOpen(other.id) : undefined
                  }
                />
              </Section>
            </Grid>
            <Grid size={{ xs: 12, md: 7 }}>
              {blocked && !editable && (
                <Alert
                  severity="warning"
                  icon={<LockIcon />}
                  sx={{ mb: 2 }}
                  action={
                    <Button
                      color="inherit"
                      size="small"
                      onClick={() => void load()}
                      disabled={loading}
                    >
                      {t('tickets.lock.retry')}
                    </Button>
                  }
                >
                  <AlertTitle>{blocked}</AlertTitle>
                  {t('tickets.lock.readOnly')}
                </Alert>
              )}
              <Section title={t('tickets.dialog.ticket')}>
                <Grid container spacing={2}>
                  <Info label={t('tickets.columns.code')}>{ticket.ticketCode}</Info>
                  <Info label={t('tickets.columns.course')}>{enrolment.course.description}</Info>
                  <Info label={t('tickets.options.source')}>
                    {cat(ticket.sourceTicket.description)}
                  </Info>
                  <Info label={t('tickets.options.type')}>
                    <Stack direction="row" spacing={0.5} sx={{ alignItems: 'center' }}>
                      <TypeIcon type={ticket.typeTicket} />
                      <span>{cat(ticket.typeTicket.description)}</span>
                    </Stack>
                  </Info>
                  <Info label={t('tickets.options.motive')}>
                    {cat(ticket.motiveTicket.description)}
                  </Info>
                  <Info label={t('tickets.options.operator')}>
                    {ticket.userAssigned?.name ?? t('tickets.unassigned')}
                  </Info>
                  <Info label={t('tickets.columns.createdAt')}>{stamp(ticket)}</Info>
                  <Info label={t('tickets.columns.age')}>{serverText(t, ticket.ageText)}</Info>
                  <Info label={t('tickets.dialog.creator')}>{ticket.userCreated.name}</Info>
                  {ticket.closingDate && (
                    <Info label={t('tickets.dialog.closedAt')}>
                      {`${ticket.closingDate} ${ticket.closingTime ?? ''}`.trim()}
                    </Info>
                  )}
                </Grid>
              </Section>
              <Section title={t('tickets.attempt.titleCount', { count: details.length })}>
                <AttemptTimeline
                  details={details}
                  onDelete={mode === 'admin' ? setDeleting : undefined}
                />
              </Section>
              {mode === 'work' && <TicketReminders ticketId={ticket.id} />}
              <TicketHistory
                key={`${ticket.id}-${ticket.version}-${details.length}`}
                ticketId={ticket.id}
              />
              {editable && (
                <Box component="form" id="ticket-form" onSubmit={save} noValidate>
                  <Divider sx={{ mb: 2 }} />
                  <Section
                    title={
                      mode === 'work' ? t('tickets.dialog.manage') : t('tickets.dialog.editOptions')
                    }
                  >
                    <TicketOptionFields
                      control={control}
                      fields={
                        mode === 'work'
                          ? ([
                              'status_ticket_id',
                              'priority_ticket_id',
                              'user_assigned_id',
                            ] as const)
                          : OPTION_FIELDS
                      }
                      operatorRequired={false}
                      disabled={formState.isSubmitting}
                    />
                  </Section>
                  {mode === 'work' && (
                    <Section title={t('tickets.attempt.new')}>
                      <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
                        {t('tickets.dialog.attemptOptional')}
                      </Typography>
                      {medium && (
                        <Typography variant="body2" sx={{ mb: 1 }} data-testid="attempt-medium">
                          {t('agenda.attempt.medium', { medium: t(`outcomes.medium.${medium}`) })}
                        </Typography>
                      )}
                      <AttemptFields
                        control={control}
                        disabled={formState.isSubmitting}
                        required={attemptRequired(form.watch(), ticket && ticketFormValues(ticket))}
                      />
                    </Section>
                  )}
                </Box>
              )}
            </Grid>
          </Grid>
        )}
      </DialogContent>
      <DialogActions sx={{ px: 3, py: 2 }}>
        {mode === 'work' && ticket && enrolment && (
          <Tooltip title={enrolment.registeredUser.email ? '' : t('mail.send.noEmail')}>
            <span style={{ marginRight: 'auto' }}>
              <Button
                startIcon={<MailIcon />}
                onClick={() => setMailing(true)}
                disabled={!enrolment.registeredUser.email || formState.isSubmitting}
              >
                {t('mail.send.open')}
              </Button>
            </span>
          </Tooltip>
        )}
        {/* "Salir", not "Cerrar": the button beside Guardar must not read as closing the ticket. */}
        <Button onClick={close} disabled={formState.isSubmitting}>
          {t('tickets.dialog.leave')}
        </Button>
        <Button type="submit" form="ticket-form" variant="contained" disabled={!editable || busy}>
          {t('common.save')}
        </Button>
      </DialogActions>
      <ConfirmDialog
        open={Boolean(deleting)}
        message={t('tickets.attempt.deleteConfirm')}
        onCancel={() => setDeleting(null)}
        onConfirm={removeAttempt}
      />
      {guard}
      {mailing && ticket && enrolment && (
        <SendMailDialog
          ticketIds={[ticket.id]}
          courseId={enrolment.course.id}
          recipient={`${enrolment.registeredUser.name} ${enrolment.registeredUser.lastName} <${enrolment.registeredUser.email}>`}
          onClose={() => {
            setMailing(false);
            void load();
          }}
        />
      )}
    </Dialog>
  );
}
