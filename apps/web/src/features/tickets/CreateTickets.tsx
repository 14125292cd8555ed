import SearchIcon from '@mui/icons-material/Search';
import { normalizeRut, TICKET_MSG } from '@sigaf/contract';
import { Alert, Box, Button, Chip, Grid, TextField } from '@mui/material';
import { useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useNotify } from '../../components/Snackbar';
import { WaitingDialog } from '../../components/WaitingDialog';
import { ApiError } from '../../lib/api';
import { addAttempt, addAttempts, createTicket, createTickets, enrolmentOf, studentByRut, type EnrolmentInfo, type Ticket } from './api';
import { StudentTickets } from './AttemptTimeline';
import { errorText, Heading, Shell, useCreateForm, useFailure, type CourseRef } from './create/parts';
import { RecipientsStep } from './create/RecipientsStep';
import { noRecipientFilters, type RecipientFilters } from './create/recipients';
import { RecipientsSummary } from './create/RecipientsSummary';
import { TicketStep, useTicketMail } from './create/TicketStep';
import { fullName } from './format';
import { splitCreateValues, type CreateTicketValues } from './schemas';
import { StudentCard } from './StudentCard';

/**
 * "Individual ＋" and "Masivo ＋" (docs/development/screens.md#single-ticket, #massive-tickets): recipients, the six options, the mail of
 * an e-mail ticket and the first contact attempt. The steps live in ./create.
 */

export type { CourseRef };

// ---------------------------------------------------------------------------------------------

/** One student, found by RUT in any spelling, must be enrolled in the course. */
export function CreateSingleDialog({ course, onClose }: { course: CourseRef; onClose: () => void }) {
  const { t } = useTranslation();
  const notify = useNotify();
  const queryClient = useQueryClient();
  const form = useCreateForm();
  const failed = useFailure(form);
  const [step, setStep] = useState(0);
  const [rut, setRut] = useState('');
  const [searching, setSearching] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const [enrolment, setEnrolment] = useState<EnrolmentInfo | null>(null);

  const search = async (e: FormEvent) => {
    e.preventDefault();
    const normal = normalizeRut(rut);
    setEnrolment(null);
    if (!normal) {
      setProblem(t('tickets.single.invalidRut'));
      return;
    }
    setRut(normal);
    setSearching(true);
    setProblem(null);
    try {
      const student = await studentByRut(normal).catch((err: unknown) => {
        // An unknown RUT is HTTP 200 with the body's statusCode 204 (the original contract).
        if (err instanceof ApiError && (err.status === 204 || err.status === 404)) throw new Error(t('tickets.single.notRegistered'));
        if (err instanceof ApiError && err.status === 406) throw new Error(t('tickets.single.invalidRut'));
        throw err;
      });
      const found = await enrolmentOf(student.properties.id, course.id).catch((err: unknown) => {
        if (err instanceof ApiError && (err.status === 204 || err.status === 404)) throw new Error(t('tickets.single.notEnrolled'));
        throw err;
      });
      setEnrolment(found.properties);
    } catch (err) {
      setProblem(err instanceof Error ? err.message : t('common.error'));
    } finally {
      setSearching(false);
    }
  };

  const mail = useTicketMail(form);
  const save = form.handleSubmit(
    async (values) => {
      if (!enrolment || !mail.check()) return;
      const { options, attempt } = splitCreateValues(values as unknown as CreateTicketValues);
      let ticket: Ticket;
      try {
        ticket = (await createTicket(enrolment.id, options))._data.properties;
      } catch (err) {
        failed(err);
        return;
      }
      try {
        if (attempt) await addAttempt(ticket.id, attempt);
        notify(TICKET_MSG.created);
      } catch (err) {
        notify(t('tickets.single.attemptFailed', { code: ticket.ticketCode, message: errorText(err, t('common.error')) }), 'error', 10_000);
      }
      try {
        const queued = await mail.send([ticket.id], 'single');
        if (queued) notify(`${TICKET_MSG.created} ${queued.message}`);
      } catch (err) {
        notify(t('tickets.create.mailFailed', { count: 1, message: errorText(err, t('common.error')) }), 'error', 10_000);
      }
      void queryClient.invalidateQueries({ queryKey: ['tickets'] });
      void queryClient.invalidateQueries({ queryKey: ['mail-outbox'] });
      onClose();
    },
    () => {
      mail.check();
      notify(t('tickets.form.incomplete'), 'warning');
    },
  );

  const busy = searching || form.formState.isSubmitting || mail.uploading;
  return (
    <Shell
      title={t('tickets.single.title')}
      steps={[t('tickets.single.stepRecipient'), t('tickets.single.stepTicket')]}
      step={step}
      onStep={setStep}
      canContinue={Boolean(enrolment)}
      formId="single-ticket-form"
      submitLabel={t('common.save')}
      busy={busy}
      saving={busy}
      invalid={Object.keys(form.formState.errors).length > 0}
      onClose={onClose}
    >
      {step === 0 && (
        <>
          <Box component="form" onSubmit={search} noValidate sx={{ display: 'flex', gap: 1, alignItems: 'flex-start', maxWidth: 520 }}>
            <TextField
              autoFocus
              label={t('tickets.single.rut')}
              placeholder="12.345.678-9"
              value={rut}
              onChange={(e) => setRut(e.target.value)}
              helperText={t('tickets.single.rutHint', { course: course.description })}
              slotProps={{ htmlInput: { maxLength: 14 } }}
            />
            <Button type="submit" variant="contained" startIcon={<SearchIcon />} disabled={searching || rut.trim() === ''} sx={{ mt: 0.25, flexShrink: 0 }}>
              {t('common.search')}
            </Button>
          </Box>
          {problem && (
            <Alert severity="warning" sx={{ mt: 2, maxWidth: 520 }}>
              {problem}
            </Alert>
          )}
          {enrolment && (
            <Grid container spacing={3} sx={{ mt: 1 }}>
              <Grid size={{ xs: 12, md: 5 }}>
                <Heading>{t('tickets.student.title')}</Heading>
                <StudentCard enrolment={enrolment} onEdited={(s) => setEnrolment({ ...enrolment, registeredUser: { ...enrolment.registeredUser, ...s } })} />
              </Grid>
              <Grid size={{ xs: 12, md: 7 }}>
                <Heading>{t('tickets.history.all')}</Heading>
                <StudentTickets enrolmentId={enrolment.id} />
              </Grid>
            </Grid>
          )}
        </>
      )}
      {step === 1 && enrolment && (
        <Box component="form" id="single-ticket-form" onSubmit={save} noValidate>
          <Chip color="primary" variant="outlined" label={`${fullName(enrolment.registeredUser).toUpperCase()} · ${enrolment.registeredUser.rut}`} />
          <TicketStep form={form} mail={mail} courseId={course.id} />
        </Box>
      )}
    </Shell>
  );
}

// ---------------------------------------------------------------------------------------------

/** Many students of the course at once: one ticket each, with the same first attempt and mail. */
export function CreateMassiveDialog({ course, onClose, initialSelection }: { course: CourseRef; onClose: () => void; /** Students chosen beforehand (e.g. in Seguimiento): the dialog opens on the ticket step. */ initialSelection?: number[] }) {
  const { t } = useTranslation();
  const notify = useNotify();
  const queryClient = useQueryClient();
  const form = useCreateForm();
  const failed = useFailure(form);
  const mail = useTicketMail(form);
  const [step, setStep] = useState(initialSelection?.length ? 1 : 0);
  const [filters, setFilters] = useState<RecipientFilters>(noRecipientFilters);
  const [selected, setSelected] = useState<number[]>(initialSelection ?? []);
  const [needOne, setNeedOne] = useState(false);
  const [generating, setGenerating] = useState(false);

  const save = form.handleSubmit(
    async (values) => {
      if (!mail.check()) return;
      const { options, attempt } = splitCreateValues(values as unknown as CreateTicketValues);
      setGenerating(true);
      try {
        let created: { message: string; ids: number[] };
        try {
          const res = await createTickets(selected, options);
          created = { message: res.message, ids: res._data.collections.map((c) => c.properties.id) };
        } catch (err) {
          failed(err);
          return;
        }
        try {
          if (attempt) await addAttempts(created.ids, attempt);
          notify(created.message || TICKET_MSG.createdMany(created.ids.length));
        } catch (err) {
          notify(t('tickets.massive.attemptsFailed', { count: created.ids.length, message: errorText(err, t('common.error')) }), 'error', 10_000);
        }
        try {
          const queued = await mail.send(created.ids, 'massive');
          if (queued) notify(`${created.message || TICKET_MSG.createdMany(created.ids.length)} ${queued.message}`);
        } catch (err) {
          notify(t('tickets.create.mailFailed', { count: created.ids.length, message: errorText(err, t('common.error')) }), 'error', 10_000);
        }
        void queryClient.invalidateQueries({ queryKey: ['tickets'] });
        void queryClient.invalidateQueries({ queryKey: ['mail-outbox'] });
        onClose();
      } finally {
        setGenerating(false);
      }
    },
    () => {
      mail.check();
      notify(t('tickets.form.incomplete'), 'warning');
    },
  );

  const busy = form.formState.isSubmitting;
  return (
    <Shell
      title={t('tickets.massive.title', { course: course.description })}
      steps={[t('tickets.massive.stepRecipients'), t('tickets.massive.stepTicket')]}
      step={step}
      onStep={setStep}
      onContinue={() => {
        setNeedOne(selected.length === 0);
        return selected.length > 0;
      }}
      formId="massive-ticket-form"
      submitLabel={t('tickets.massive.generate')}
      busy={busy || mail.uploading}
      saving={busy || mail.uploading}
      invalid={Object.keys(form.formState.errors).length > 0}
      onClose={onClose}
    >
      {step === 0 && <RecipientsStep courseId={course.id} filters={filters} onFilters={setFilters} selected={selected} onSelected={setSelected} needOne={needOne} />}
      {step === 1 && (
        <Box component="form" id="massive-ticket-form" onSubmit={save} noValidate>
          <Alert severity="info">{t('tickets.massive.summary', { count: selected.length })}</Alert>
          <RecipientsSummary courseId={course.id} filters={filters} />
          <TicketStep form={form} mail={mail} courseId={course.id} />
        </Box>
      )}
      <WaitingDialog open={generating} message={t('tickets.massive.generating')} />
    </Shell>
  );
}
