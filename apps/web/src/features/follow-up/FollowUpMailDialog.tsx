import ArrowBackIcon from '@mui/icons-material/ArrowBack';
import PreviewIcon from '@mui/icons-material/Preview';
import SendIcon from '@mui/icons-material/Send';
import type { FieldErrors, FollowUpMailPreview } from '@sigaf/contract';
import {
  Alert,
  Box,
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  LinearProgress,
  Stack,
  Typography,
} from '@mui/material';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNotify } from '../../components/Snackbar';
import { ApiError } from '../../lib/api';
import {
  emptyMailDraft,
  MailComposer,
  mailDraftToBody,
  OutboxPanel,
  validateMailDraft,
  type MailDraft,
} from '../mail';
import { previewFollowUpMail, sendFollowUpMail } from './api';
import { useDiscardGuard } from '../../components/useDiscardGuard';

type Step = 'compose' | 'preview' | 'sent';

/**
 * "Enviar correo" to the selected students (no ticket needed): compose, see the count and the
 * first message as it will be delivered, confirm, then follow delivery in the outbox. `recipient`
 * names the one student written to (Mi agenda), from the first step. A message not failed counts as
 * a contact of its student (and is logged on the student's open ticket once sent).
 */
export function FollowUpMailDialog({
  enrolmentIds,
  courseId,
  recipient,
  onClose,
}: {
  enrolmentIds: number[];
  courseId: number;
  recipient?: string;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const notify = useNotify();
  const queryClient = useQueryClient();
  const [draft, setDraft] = useState<MailDraft>(emptyMailDraft);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [uploading, setUploading] = useState(false);
  const [busy, setBusy] = useState(false);
  const [step, setStep] = useState<Step>('compose');
  const [preview, setPreview] = useState<FollowUpMailPreview | null>(null);
  const [result, setResult] = useState<string | null>(null);
  const { close, guard } = useDiscardGuard(
    step !== 'sent' && JSON.stringify(draft) !== JSON.stringify(emptyMailDraft()),
    onClose,
  );

  const failed = (err: unknown) => {
    if (err instanceof ApiError) setErrors(err.fieldErrors);
    const fieldText =
      err instanceof ApiError ? Object.values(err.fieldErrors).flat()[0] : undefined;
    notify(fieldText ?? (err instanceof ApiError ? err.message : t('common.error')), 'error', 8000);
  };

  const openPreview = async () => {
    const found = validateMailDraft(draft, (key, opts) => t(key, opts ?? {}));
    setErrors(found);
    if (Object.keys(found).length) return;
    setBusy(true);
    try {
      const body = mailDraftToBody(draft);
      setPreview(
        await previewFollowUpMail(enrolmentIds, { subject: body.subject, text: body.text }),
      );
      setStep('preview');
    } catch (err) {
      failed(err);
    } finally {
      setBusy(false);
    }
  };

  const send = async () => {
    setBusy(true);
    try {
      const res = await sendFollowUpMail(enrolmentIds, mailDraftToBody(draft));
      setResult(res.message);
      notify(res.message);
      setStep('sent');
      void queryClient.invalidateQueries({ queryKey: ['agenda'] });
    } catch (err) {
      failed(err);
      setStep('compose');
    } finally {
      setBusy(false);
    }
  };

  return (
    <Dialog
      open
      onClose={busy ? undefined : close}
      maxWidth="md"
      fullWidth
      aria-labelledby="follow-up-mail-title"
    >
      <DialogTitle id="follow-up-mail-title" sx={{ bgcolor: 'primary.main', color: 'white' }}>
        {t('followUp.mail.title', { count: enrolmentIds.length })}
      </DialogTitle>
      {busy && <LinearProgress />}
      <DialogContent>
        {step === 'compose' && (
          <Box sx={{ mt: 2 }}>
            {recipient && (
              <Typography variant="body2" sx={{ mb: 2 }} data-testid="follow-up-mail-recipient">
                {t('mail.send.to', { recipient })}
              </Typography>
            )}
            <MailComposer
              value={draft}
              onChange={setDraft}
              errors={errors}
              courseId={courseId}
              disabled={busy}
              onUploadingChange={setUploading}
            />
            <Alert severity="info" sx={{ mt: 2 }}>
              {t('followUp.mail.hint')}
            </Alert>
          </Box>
        )}
        {step === 'preview' && preview && (
          <Stack spacing={1.5} sx={{ mt: 2 }}>
            <Alert severity={preview.count ? 'info' : 'warning'} data-testid="follow-up-mail-count">
              {t('followUp.mail.count', { count: preview.count })}{' '}
              {t('followUp.mail.contact', { count: preview.count })}
              {preview.skipped.length > 0 &&
                ` ${t('followUp.mail.skipped', { count: preview.skipped.length, names: preview.skipped.map((s) => s.name).join(', ') })}`}
            </Alert>
            {preview.sample && (
              <>
                <Box
                  component="dl"
                  sx={{
                    display: 'grid',
                    gridTemplateColumns: 'max-content 1fr',
                    columnGap: 2,
                    rowGap: 0.5,
                    m: 0,
                    '& dt': { fontWeight: 700 },
                    '& dd': { m: 0 },
                  }}
                >
                  <dt>{t('followUp.mail.to')}</dt>
                  <dd data-testid="follow-up-mail-to">{preview.sample.to}</dd>
                  <dt>{t('followUp.mail.subject')}</dt>
                  <dd data-testid="follow-up-mail-subject">{preview.sample.subject}</dd>
                </Box>
                <Box
                  component="iframe"
                  title={t('followUp.mail.frame')}
                  sandbox=""
                  srcDoc={preview.sample.html}
                  sx={{
                    width: '100%',
                    height: 320,
                    border: 1,
                    borderColor: 'divider',
                    borderRadius: 1,
                    bgcolor: '#f5f5f5',
                  }}
                />
              </>
            )}
          </Stack>
        )}
        {step === 'sent' && (
          <Stack spacing={2} sx={{ mt: 2 }}>
            <Alert severity="success" data-testid="follow-up-mail-result">
              {result}
            </Alert>
            <Typography
              variant="subtitle1"
              component="h3"
              sx={{ fontWeight: 700, color: 'primary.main' }}
            >
              {t('followUp.mail.outbox')}
            </Typography>
            <OutboxPanel courseId={courseId} perPage={5} />
          </Stack>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={close} disabled={busy}>
          {t('common.close')}
        </Button>
        {step === 'compose' && (
          <Button
            variant="contained"
            startIcon={<PreviewIcon />}
            onClick={() => void openPreview()}
            disabled={busy || uploading}
          >
            {t('followUp.mail.preview')}
          </Button>
        )}
        {step === 'preview' && (
          <>
            <Button
              startIcon={<ArrowBackIcon />}
              onClick={() => setStep('compose')}
              disabled={busy}
            >
              {t('followUp.mail.back')}
            </Button>
            <Button
              variant="contained"
              startIcon={<SendIcon />}
              onClick={() => void send()}
              disabled={busy || !preview?.count}
            >
              {t('followUp.mail.send', { count: preview?.count ?? 0 })}
            </Button>
          </>
        )}
      </DialogActions>
      {guard}
    </Dialog>
  );
}
