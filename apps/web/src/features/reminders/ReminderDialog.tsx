import {
  chileLocalToDate,
  chileParts,
  defaultReminderDue,
  isAdminLike,
  type Reminder,
} from '@sigaf/contract';
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
} from '@mui/material';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DayField } from '../../components/DayField';
import { useNotify } from '../../components/Snackbar';
import { ApiError } from '../../lib/api';
import { useSession } from '../../lib/session';
import { useReminderAction, useStaff } from './api';
import { useDiscardGuard } from '../../components/useDiscardGuard';

/**
 * Adds or edits a reminder: day and time in Chilean time (by default tomorrow 10:00), a comment,
 * and, for administrators, the operator it is for. `snooze` asks only for the new time.
 */
export function ReminderDialog({
  ticketId,
  reminder,
  snooze,
  onClose,
}: {
  ticketId?: number;
  reminder?: Reminder;
  snooze?: boolean;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const notify = useNotify();
  const session = useSession();
  const admin = isAdminLike(session.role);
  const staff = useStaff(admin && !snooze);
  const action = useReminderAction();
  const start = reminder ? chileParts(reminder.dueAt) : defaultReminderDue();
  const [day, setDay] = useState(start.day);
  const [time, setTime] = useState(start.time);
  const [comment, setComment] = useState(reminder?.comment ?? '');
  const [owner, setOwner] = useState<number | ''>(reminder?.userId ?? session.user?.id ?? '');
  const [errors, setErrors] = useState<Record<string, string[]>>({});
  const [failure, setFailure] = useState<string | null>(null);
  const due = chileLocalToDate(day, time);

  const save = async () => {
    if (!due) {
      setErrors({ due_at: [t('agenda.reminder.invalidDue')] });
      return;
    }
    setErrors({});
    setFailure(null);
    try {
      const body = {
        due_at: due.toISOString(),
        ...(snooze ? {} : { comment, ...(admin && owner !== '' ? { user_id: owner } : {}) }),
      };
      const res = snooze
        ? await action.mutateAsync({ kind: 'snooze', id: reminder!.id, due_at: body.due_at })
        : reminder
          ? await action.mutateAsync({ kind: 'update', id: reminder.id, body })
          : await action.mutateAsync({ kind: 'create', body: { ...body, ticket_id: ticketId } });
      notify(res.message);
      onClose();
    } catch (err) {
      if (err instanceof ApiError) {
        setErrors(err.fieldErrors ?? {});
        setFailure(err.message);
      } else setFailure(t('common.loadError'));
    }
  };

  const initialOwner = reminder?.userId ?? session.user?.id ?? '';
  const { close, guard } = useDiscardGuard(
    day !== start.day ||
      time !== start.time ||
      comment !== (reminder?.comment ?? '') ||
      owner !== initialOwner,
    onClose,
  );
  const title = snooze
    ? t('agenda.reminder.snoozeTitle')
    : reminder
      ? t('agenda.reminder.editTitle')
      : t('agenda.reminder.addTitle');
  return (
    <Dialog
      open
      onClose={action.isPending ? undefined : close}
      maxWidth="xs"
      fullWidth
      aria-labelledby="reminder-dialog-title"
    >
      <DialogTitle id="reminder-dialog-title">{title}</DialogTitle>
      <DialogContent>
        <Stack spacing={2} sx={{ pt: 1 }}>
          {failure && <Alert severity="error">{failure}</Alert>}
          <Stack direction="row" spacing={2}>
            <DayField
              label={t('agenda.reminder.day')}
              value={day}
              onChange={setDay}
              error={Boolean(errors.due_at)}
              helperText={errors.due_at?.[0] ?? t('agenda.reminder.chileTime')}
              fullWidth
            />
            <TextField
              label={t('agenda.reminder.time')}
              type="time"
              value={time}
              onChange={(e) => setTime(e.target.value)}
              slotProps={{ inputLabel: { shrink: true } }}
              fullWidth
            />
          </Stack>
          {!snooze && (
            <TextField
              label={t('agenda.reminder.comment')}
              value={comment}
              onChange={(e) => setComment(e.target.value)}
              multiline
              minRows={2}
              error={Boolean(errors.comment)}
              helperText={errors.comment?.[0]}
              slotProps={{ htmlInput: { maxLength: 1000 } }}
            />
          )}
          {!snooze && admin && (
            <TextField
              select
              label={t('agenda.reminder.owner')}
              value={staff.data?.length ? owner : ''}
              onChange={(e) => setOwner(Number(e.target.value))}
              error={Boolean(errors.user_id)}
              helperText={errors.user_id?.[0]}
            >
              {(staff.data ?? []).map((s) => (
                <MenuItem key={s.id} value={s.id}>
                  {s.name}
                </MenuItem>
              ))}
            </TextField>
          )}
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={close} disabled={action.isPending}>
          {t('common.cancel')}
        </Button>
        <Button variant="contained" onClick={() => void save()} disabled={action.isPending}>
          {t('common.save')}
        </Button>
      </DialogActions>
      {guard}
    </Dialog>
  );
}
