import { TICKET_MSG, type StudentMatch } from '@sigaf/contract';
import { Alert, Box, Chip, Grid } from '@mui/material';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNotify } from '../../components/Snackbar';
import { WaitingDialog } from '../../components/WaitingDialog';
import { ApiError } from '../../lib/api';
import {
  addAttempt,
  addAttempts,
  createTicket,
  createTickets,
  enrolmentOf,
  type EnrolmentInfo,
  type Ticket,
} from './api';
import { StudentTickets } from './AttemptTimeline';
import {
  errorText,
  Heading,
  Shell,
  useCreateForm,
  useFailure,
  type CourseRef,
  type CreatePreset,
} from './create/parts';
import { RecipientsStep } from './create/RecipientsStep';
import { noRecipientFilters, type RecipientFilters } from './create/recipients';
import { RecipientsSummary } from './create/RecipientsSummary';
import { StudentFinder } from './create/StudentFinder';
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

/** One student, found by name or RUT among the active courses (the shown course's first). */
export function CreateSingleDialog({
  course,
  onClose,
}: {
  course: CourseRef;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const notify = useNotify();
  const queryClient = useQueryClient();
  const form = useCreateForm();
  const failed = useFailure(form);
  const [step, setStep] = useState(0);
  const [searching, setSearching] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const [enrolment, setEnrolment] = useState<EnrolmentInfo | null>(null);
  /** The course of the chosen enrolment (the shown one, or another course of the student's). */
  const [target, setTarget] = useState<{ id: number; description: string }>(course);

  const pick = async (match: StudentMatch | null) => {
    setEnrolment(null);
    setProblem(null);
    if (!match) return;
    setSearching(true);
    try {
      setEnrolment((await enrolmentOf(match.studentId, match.courseId)).properties);
      setTarget({ id: match.courseId, description: match.course });
    } catch (err) {
      setProblem(err instanceof ApiError ? err.message : t('common.error'));
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
        notify(
          t('tickets.single.attemptFailed', {
            code: ticket.ticketCode,
            message: errorText(err, t('common.error')),
          }),
          'error',
          10_000,
        );
      }
      try {
        const queued = await mail.send([ticket.id], 'single');
        if (queued) notify(`${TICKET_MSG.created} ${queued.message}`);
      } catch (err) {
        notify(
          t('tickets.create.mailFailed', { count: 1, message: errorText(err, t('common.error')) }),
          'error',
          10_000,
        );
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
      dirty={form.formState.isDirty}
      submitLabel={t('common.save')}
      busy={busy}
      saving={busy}
      invalid={Object.keys(form.formState.errors).length > 0}
      onClose={onClose}
    >
      {step === 0 && (
        <>
          <StudentFinder
            courseId={course.id}
            courseName={course.description}
            onPick={(m) => void pick(m)}
          />
          {problem && (
            <Alert severity="warning" sx={{ mt: 2, maxWidth: 520 }}>
              {problem}
            </Alert>
          )}
          {enrolment && (
            <Grid container spacing={3} sx={{ mt: 1 }}>
              <Grid size={{ xs: 12, md: 5 }}>
                <Heading>{t('tickets.student.title')}</Heading>
                <StudentCard
                  enrolment={enrolment}
                  onEdited={(s) =>
                    setEnrolment({
                      ...enrolment,
                      registeredUser: { ...enrolment.registeredUser, ...s },
                    })
                  }
                />
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
          <Chip
            color="primary"
            variant="outlined"
            label={`${fullName(enrolment.registeredUser)} · ${enrolment.registeredUser.rut} · ${target.description}`}
          />
          <TicketStep form={form} mail={mail} courseId={target.id} />
        </Box>
      )}
    </Shell>
  );
}

// ---------------------------------------------------------------------------------------------

/** Many students of the course at once: one ticket each, with the same first attempt and mail. */
export function CreateMassiveDialog({
  course,
  onClose,
  initialSelection,
  studentName,
  preset,
}: {
  course: CourseRef;
  onClose: () => void;
  /** Students chosen beforehand (e.g. in Seguimiento): the dialog opens on the ticket step. */
  initialSelection?: number[];
  /** The name of the one student chosen beforehand, said in the summary. */
  studentName?: string;
  /** Options chosen beforehand by catalogue key (a contact logged after a call or a WhatsApp message). */
  preset?: CreatePreset;
}) {
  const { t } = useTranslation();
  const notify = useNotify();
  const queryClient = useQueryClient();
  const form = useCreateForm(preset);
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
          created = {
            message: res.message,
            ids: res._data.collections.map((c) => c.properties.id),
          };
        } catch (err) {
          failed(err);
          return;
        }
        try {
          if (attempt)
            await addAttempts(
              created.ids,
              preset?.medium
                ? { ...attempt, medium: preset.medium, direction: 'outgoing' }
                : attempt,
            );
          notify(created.message || TICKET_MSG.createdMany(created.ids.length));
        } catch (err) {
          notify(
            t('tickets.massive.attemptsFailed', {
              count: created.ids.length,
              message: errorText(err, t('common.error')),
            }),
            'error',
            10_000,
          );
        }
        try {
          const queued = await mail.send(created.ids, 'massive');
          if (queued)
            notify(
              `${created.message || TICKET_MSG.createdMany(created.ids.length)} ${queued.message}`,
            );
        } catch (err) {
          notify(
            t('tickets.create.mailFailed', {
              count: created.ids.length,
              message: errorText(err, t('common.error')),
            }),
            'error',
            10_000,
          );
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
      // Opened for one student (a student card, Mi agenda): one ticket, not a "masivo".
      title={t(
        initialSelection?.length === 1 ? 'tickets.massive.titleOne' : 'tickets.massive.title',
        { course: course.description },
      )}
      steps={[t('tickets.massive.stepRecipients'), t('tickets.massive.stepTicket')]}
      step={step}
      onStep={setStep}
      onContinue={() => {
        setNeedOne(selected.length === 0);
        return selected.length > 0;
      }}
      formId="massive-ticket-form"
      dirty={form.formState.isDirty || selected.length !== (initialSelection?.length ?? 0)}
      submitLabel={t(
        selected.length === 1 ? 'tickets.massive.generateOne' : 'tickets.massive.generate',
      )}
      busy={busy || mail.uploading}
      saving={busy || mail.uploading}
      invalid={Object.keys(form.formState.errors).length > 0}
      onClose={onClose}
    >
      {step === 0 && (
        <RecipientsStep
          courseId={course.id}
          filters={filters}
          onFilters={setFilters}
          selected={selected}
          onSelected={setSelected}
          needOne={needOne}
        />
      )}
      {step === 1 && (
        <Box component="form" id="massive-ticket-form" onSubmit={save} noValidate>
          <Alert severity="info">
            {studentName && selected.length === 1 && selected[0] === initialSelection?.[0]
              ? t('tickets.massive.summaryFor', { name: studentName })
              : t('tickets.massive.summary', { count: selected.length })}
          </Alert>
          <RecipientsSummary courseId={course.id} filters={filters} />
          <TicketStep form={form} mail={mail} courseId={course.id} />
        </Box>
      )}
      <WaitingDialog open={generating} message={t('tickets.massive.generating')} />
    </Shell>
  );
}
