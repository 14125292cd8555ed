import type { FieldErrors } from '@sigaf/contract';
import { Alert, Checkbox, FormControlLabel } from '@mui/material';
import { useState } from 'react';
import { Controller, type UseFormReturn } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import {
  emptyMailDraft,
  MailComposer,
  mailDraftIsEmpty,
  mailDraftToBody,
  sendMassive,
  sendSingle,
  validateMailDraft,
  type MailDraft,
} from '../../mail';
import { useCatalogue } from '../api';
import { AttemptFields, TicketOptionFields } from '../fields';
import { OPTION_FIELDS, type FormValues } from '../schemas';
import { Heading } from './parts';

/**
 * The mail of an e-mail ticket (docs/development/screens.md#mail-composer, #massive-tickets): the draft the composer edits while Tipo is
 * "Correo electrónico", checked before the tickets are created and queued after.
 */
export function useTicketMail(form: UseFormReturn<FormValues>) {
  const { t } = useTranslation();
  const types = useCatalogue('type');
  const typeId = form.watch('type_ticket_id');
  const isEmail = Boolean(
    types.data?.some((x) => x.key === 'email' && String(x.id) === String(typeId)),
  );
  const [draft, setDraft] = useState<MailDraft>(emptyMailDraft);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [uploading, setUploading] = useState(false);
  /** Something to send: an e-mail ticket with a subject, a body or a file. */
  const wanted = isEmail && !mailDraftIsEmpty(draft);
  return {
    isEmail,
    draft,
    setDraft,
    errors,
    uploading,
    setUploading,
    /** False (and the composer shows why) when the mail would be refused. */
    check: () => {
      const found = wanted ? validateMailDraft(draft, (key, opts) => t(key, opts ?? {})) : {};
      setErrors(found);
      return Object.keys(found).length === 0;
    },
    /** Queues the mail of the new ticket(s): one for Individual, one per ticket for Masivo. Null when there is none. */
    send: async (ticketIds: number[], mode: 'single' | 'massive') => {
      if (!wanted || !ticketIds.length) return null;
      const body = mailDraftToBody(draft);
      return mode === 'single' ? sendSingle(ticketIds[0]!, body) : sendMassive(ticketIds, body);
    },
  };
}
export type TicketMail = ReturnType<typeof useTicketMail>;

/** "Opciones ticket", the composer for e-mail tickets, then the optional first contact attempt. */
export function TicketStep({
  form,
  mail,
  courseId,
}: {
  form: UseFormReturn<FormValues>;
  mail: TicketMail;
  courseId: number;
}) {
  const { t } = useTranslation();
  const disabled = form.formState.isSubmitting;
  const withAttempt = form.watch('with_attempt') === '1';
  return (
    <>
      <Heading>{t('tickets.options.title')}</Heading>
      <TicketOptionFields control={form.control} fields={OPTION_FIELDS} disabled={disabled} />
      {mail.isEmail && (
        <section aria-label={t('tickets.create.mailTitle')}>
          <Heading>{t('tickets.create.mailTitle')}</Heading>
          <Alert severity="info" sx={{ mb: 2 }}>
            {t('tickets.create.mailHint')}
          </Alert>
          <MailComposer
            value={mail.draft}
            onChange={mail.setDraft}
            errors={mail.errors}
            courseId={courseId}
            disabled={disabled}
            onUploadingChange={mail.setUploading}
          />
        </section>
      )}
      <Heading>{t('tickets.attempt.first')}</Heading>
      <Controller
        name="with_attempt"
        control={form.control}
        render={({ field }) => (
          <FormControlLabel
            control={
              <Checkbox
                checked={field.value === '1'}
                disabled={disabled}
                onChange={(e) => field.onChange(e.target.checked ? '1' : '')}
              />
            }
            label={t('tickets.attempt.withFirst')}
          />
        )}
      />
      {withAttempt ? (
        <AttemptFields control={form.control} disabled={disabled} />
      ) : (
        <Alert severity="info">{t('tickets.attempt.withoutFirst')}</Alert>
      )}
    </>
  );
}
