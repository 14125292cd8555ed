import PreviewIcon from '@mui/icons-material/Preview';
import SendIcon from '@mui/icons-material/Send';
import type { FieldErrors } from '@sigaf/contract';
import {
  Alert,
  Box,
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  LinearProgress,
  Typography,
} from '@mui/material';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNotify } from '../../components/Snackbar';
import { ApiError } from '../../lib/api';
import { sendMassive, sendSingle } from './api';
import { emptyMailDraft, mailDraftToBody, validateMailDraft, type MailDraft } from './draft';
import { MailComposer } from './MailComposer';
import { MailPreviewDialog } from './MailPreviewDialog';
import { OutboxPanel } from './OutboxPanel';
import { useDiscardGuard } from '../../components/useDiscardGuard';

export interface SendMailDialogProps {
  /** One ticket (a single mail to its student) or many (one mail per ticket's student). */
  ticketIds: number[];
  courseId?: number;
  /** Who receives it, as shown to the sender. */
  recipient: string;
  onClose: () => void;
}

/** "Enviar correo" from one ticket or the selected ones: compose, queue in the outbox, follow delivery. */
export function SendMailDialog({ ticketIds, courseId, recipient, onClose }: SendMailDialogProps) {
  const single = ticketIds.length === 1 ? ticketIds[0]! : null;
  const { t } = useTranslation();
  const notify = useNotify();
  const queryClient = useQueryClient();
  const [draft, setDraft] = useState<MailDraft>(emptyMailDraft);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [uploading, setUploading] = useState(false);
  const [sending, setSending] = useState(false);
  const [previewing, setPreviewing] = useState(false);
  const { close, guard } = useDiscardGuard(
    JSON.stringify(draft) !== JSON.stringify(emptyMailDraft()),
    onClose,
  );

  const preview = () => {
    const found = validateMailDraft(draft, (key, opts) => t(key, opts ?? {}));
    setErrors(found);
    if (!Object.keys(found).length) setPreviewing(true);
  };

  const send = async () => {
    const found = validateMailDraft(draft, (key, opts) => t(key, opts ?? {}));
    setErrors(found);
    if (Object.keys(found).length) return;
    setSending(true);
    try {
      const body = mailDraftToBody(draft);
      const res =
        single !== null ? await sendSingle(single, body) : await sendMassive(ticketIds, body);
      notify(res.message);
      setDraft(emptyMailDraft());
      await queryClient.invalidateQueries();
    } catch (err) {
      if (err instanceof ApiError) setErrors(err.fieldErrors);
      notify(err instanceof ApiError ? err.message : t('common.error'), 'error');
    } finally {
      setSending(false);
    }
  };

  return (
    <Dialog
      open
      onClose={sending ? undefined : close}
      maxWidth="md"
      fullWidth
      aria-labelledby="send-mail-title"
    >
      <DialogTitle id="send-mail-title" sx={{ bgcolor: 'primary.main', color: 'white' }}>
        {t('mail.send.title')}
      </DialogTitle>
      {sending && <LinearProgress />}
      <DialogContent>
        <Typography variant="body2" sx={{ mt: 2, mb: 2 }}>
          {t('mail.send.to', { recipient })}
        </Typography>
        <MailComposer
          value={draft}
          onChange={setDraft}
          errors={errors}
          courseId={courseId}
          disabled={sending}
          onUploadingChange={setUploading}
        />
        <Alert severity="info" sx={{ mt: 2 }}>
          {t('mail.send.hint')}
        </Alert>
        <Box sx={{ mt: 3 }}>
          <Typography
            variant="subtitle1"
            component="h2"
            sx={{ fontWeight: 700, color: 'primary.main', mb: 1 }}
          >
            {t(single !== null ? 'mail.send.sent' : 'mail.outbox.title')}
          </Typography>
          <OutboxPanel ticketId={single} perPage={5} />
        </Box>
      </DialogContent>
      <DialogActions>
        <Button onClick={close} disabled={sending}>
          {t('common.close')}
        </Button>
        <Button startIcon={<PreviewIcon />} onClick={preview} disabled={sending}>
          {t('mail.preview.open')}
        </Button>
        <Button
          variant="contained"
          startIcon={<SendIcon />}
          onClick={() => void send()}
          disabled={sending || uploading}
        >
          {t('mail.send.action')}
        </Button>
      </DialogActions>
      {previewing && (
        <MailPreviewDialog
          ticketIds={ticketIds}
          draft={draft}
          onClose={() => setPreviewing(false)}
        />
      )}
      {guard}
    </Dialog>
  );
}
