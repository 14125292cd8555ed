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
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNotify } from '../../components/Snackbar';
import { ApiError } from '../../lib/api';
import { useStudentDetail } from '../follow-up/api';
import { PhoneContact } from '../tickets/ContactActions';
import { useAttemptResults, useLogAttempt } from './api';
import { useDiscardGuard } from '../../components/useDiscardGuard';

/** The student's phone numbers, each with its call link and (for a mobile) WhatsApp. */
function StudentPhone({ enrolmentId }: { enrolmentId: number }) {
  const { t } = useTranslation();
  const detail = useStudentDetail(enrolmentId);
  const d = detail.data;
  if (!d) return null;
  const s = d.student;
  return (
    <Typography variant="body2" component="div" data-testid="attempt-phone">
      {s.phone ? (
        <PhoneContact
          number={s.phone}
          canLog={false}
          target={{
            enrolmentId: s.id,
            course: d.course,
            name: s.name,
            lastName: s.lastName,
            rut: s.rut,
            classroom: s.classroom,
          }}
        />
      ) : (
        t('followUp.detail.noPhone')
      )}
    </Typography>
  );
}

/**
 * Logs a contact attempt on a ticket without leaving the agenda (a reminder already due becomes
 * done), naming the student and their phone so the call can be made from here.
 */
export function LogAttemptDialog({
  ticketId,
  ticketCode,
  student,
  enrolmentId,
  onClose,
}: {
  ticketId: number;
  ticketCode: string;
  student: string;
  enrolmentId: number;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const notify = useNotify();
  const results = useAttemptResults(true);
  const log = useLogAttempt();
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
          <StudentPhone enrolmentId={enrolmentId} />
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
                {o.description}
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
