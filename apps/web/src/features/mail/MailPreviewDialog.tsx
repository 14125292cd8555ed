import {
  Alert,
  Box,
  Button,
  CircularProgress,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  Stack,
  Typography,
} from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../lib/api';
import { previewMail } from './api';
import type { MailDraft } from './draft';

export interface MailPreviewDialogProps {
  ticketIds: number[];
  draft: MailDraft;
  onClose: () => void;
}

/**
 * "Vista previa": the message the first student will receive, rendered by the server exactly as
 * it will be sent (placeholders filled, HTML sanitised, the layout), and how many students get
 * one. The HTML is shown in a sandboxed frame: nothing in it can run.
 */
export function MailPreviewDialog({ ticketIds, draft, onClose }: MailPreviewDialogProps) {
  const { t } = useTranslation();
  const preview = useQuery({
    queryKey: ['mail-preview', ticketIds, draft.subject, draft.html],
    queryFn: () => previewMail(ticketIds, { subject: draft.subject.trim(), text: draft.html }),
    retry: false,
    gcTime: 0,
  });
  const data = preview.data;
  const error = preview.error instanceof ApiError ? preview.error : null;
  const errorText = error
    ? (Object.values(error.fieldErrors).flat()[0] ?? error.message)
    : preview.error
      ? t('common.error')
      : null;

  return (
    <Dialog open onClose={onClose} maxWidth="md" fullWidth aria-labelledby="mail-preview-title">
      <DialogTitle id="mail-preview-title" sx={{ bgcolor: 'primary.main', color: 'white' }}>
        {t('mail.preview.title')}
      </DialogTitle>
      <DialogContent>
        {preview.isPending && (
          <Box sx={{ display: 'flex', justifyContent: 'center', py: 4 }}>
            <CircularProgress aria-label={t('mail.preview.loading')} />
          </Box>
        )}
        {errorText && (
          <Alert severity="error" sx={{ mt: 2 }}>
            {errorText}
          </Alert>
        )}
        {data && (
          <Stack spacing={1.5} sx={{ mt: 2 }}>
            <Alert severity={data.recipients ? 'info' : 'warning'} data-testid="mail-preview-count">
              {t('mail.preview.count', { count: data.recipients })}
              {data.skipped.length > 0 &&
                ` ${t('mail.preview.skipped', { count: data.skipped.length })}`}
            </Alert>
            {data.sample && (
              <>
                <Typography variant="body2">
                  {t('mail.preview.sampleOf', {
                    student: data.sample.student,
                    code: data.sample.ticketCode,
                  })}
                </Typography>
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
                  <dt>{t('mail.preview.from')}</dt>
                  <dd>{data.sample.from}</dd>
                  <dt>{t('mail.preview.to')}</dt>
                  <dd data-testid="mail-preview-to">{data.sample.to}</dd>
                  {data.sample.replyTo && (
                    <>
                      <dt>{t('mail.preview.replyTo')}</dt>
                      <dd>{data.sample.replyTo}</dd>
                    </>
                  )}
                  <dt>{t('mail.subject')}</dt>
                  <dd data-testid="mail-preview-subject">{data.sample.subject}</dd>
                </Box>
                <Box
                  component="iframe"
                  title={t('mail.preview.frame')}
                  sandbox=""
                  srcDoc={data.sample.html}
                  data-testid="mail-preview-frame"
                  sx={{
                    width: '100%',
                    height: 360,
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
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t('common.close')}</Button>
      </DialogActions>
    </Dialog>
  );
}
