import {
  Alert,
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  MenuItem,
  Stack,
  TextField,
  Typography,
} from '@mui/material';
import type { AttemptMedium } from '@sigaf/contract';
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useNotify } from '../../components/Snackbar';
import { ApiError } from '../../lib/api';
import { useAttemptResults, useLogAttempt } from './api';
import { useDiscardGuard } from '../../components/useDiscardGuard';
import { useCatalogueText } from '../../lib/catalogue';

/**
 * Logs a contact attempt on a ticket in place (a reminder already due becomes done), naming the
 * student. `medium` is how the contact was made, when known (an outgoing call or WhatsApp message);
 * `contact` shows the student's phone so the call can be made from here, and a call or message
 * made from it sets the medium.
 */
export function LogAttemptDialog({
  ticketId,
  ticketCode,
  student,
  medium: given,
  contact,
  onClose,
}: {
  ticketId: number;
  ticketCode: string;
  student: string;
  medium?: AttemptMedium;
  contact?: (made: (medium: AttemptMedium) => void) => ReactNode;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const cat = useCatalogueText();
  const notify = useNotify();
  const results = useAttemptResults(true);
  const log = useLogAttempt();
  const [medium, setMedium] = useState(given);
  const [result, setResult] = useState<number | ''>('');
  const [comment, setComment] = useState('');
  const [errors, setErrors] = useState<Record<string, string[]>>({});
  const [failure, setFailure] = useState<string | null>(null);
  const { close, guard } = useDiscardGuard(result !== '' || comment.trim() !== '', onClose);
  const save = async () => {
    if (result === '') {
      setErrors({ status_detail_ticket_id: [t('common.required')] });
      return;
    }
    try {
      const res = await log.mutateAsync({
        ticket_id: ticketId,
        status_detail_ticket_id: result,
        comment,
        ...(medium ? { medium, direction: 'outgoing' as const } : {}),
      });
      notify(res.message);
      onClose();
    } catch (err) {
      setErrors(err instanceof ApiError ? err.fieldErrors : {});
      setFailure(err instanceof ApiError ? err.message : t('common.error'));
    }
  };
  return (
    <Dialog
      open
      onClose={log.isPending ? undefined : close}
      maxWidth="xs"
      fullWidth
      aria-labelledby="log-attempt-title"
    >
      <DialogTitle id="log-attempt-title">
        {t('agenda.attempt.title', { name: student, code: ticketCode })}
      </DialogTitle>
      <DialogContent>
        <Stack spacing={2} sx={{ pt: 1 }}>
          {contact?.(setMedium)}
          {medium && (
            <Typography variant="body2" data-testid="attempt-medium">
              {t('agenda.attempt.medium', { medium: t(`outcomes.medium.${medium}`) })}
            </Typography>
          )}
          {failure && <Alert severity="error">{failure}</Alert>}
          {results.isError && <Alert severity="error">{t('common.loadError')}</Alert>}
          <TextField
            select
            label={t('agenda.attempt.result')}
            value={results.data?.length ? result : ''}
            onChange={(e) => setResult(Number(e.target.value))}
            error={Boolean(errors.status_detail_ticket_id)}
            helperText={errors.status_detail_ticket_id?.[0]}
            required
          >
            {(results.data ?? []).map((o) => (
              <MenuItem key={o.id} value={o.id}>
                {cat(o.description)}
              </MenuItem>
            ))}
          </TextField>
          <TextField
            label={t('agenda.attempt.comment')}
            value={comment}
            onChange={(e) => setComment(e.target.value)}
            multiline
            minRows={2}
            error={Boolean(errors.comment)}
            helperText={errors.comment?.[0]}
          />
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={close} disabled={log.isPending}>
          {t('common.cancel')}
        </Button>
        <Button variant="contained" onClick={() => void save()} disabled={log.isPending}>
          {t('agenda.attempt.save')}
        </Button>
      </DialogActions>
      {guard}
    </Dialog>
  );
}
