import { chileDateTime, isAdminLike, type Reminder } from '@sigaf/contract';
import CheckIcon from '@mui/icons-material/Check';
import CloseIcon from '@mui/icons-material/Close';
import EditIcon from '@mui/icons-material/Edit';
import { Box, Chip, IconButton, Stack, Tooltip, Typography } from '@mui/material';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { useNotify } from '../../components/Snackbar';
import { ApiError } from '../../lib/api';
import { useSession } from '../../lib/session';
import { useReminderAction } from './api';
import { ReminderDialog } from './ReminderDialog';

/** A reminder's state as a chip; an overdue one in red, wherever it appears. */
export function ReminderStateChip({ reminder }: { reminder: Reminder }) {
  const { t } = useTranslation();
  if (reminder.overdue)
    return <Chip size="small" color="error" label={t('agenda.state.overdue')} />;
  const color =
    reminder.state === 'pending' ? 'warning' : reminder.state === 'done' ? 'success' : 'default';
  return (
    <Chip
      size="small"
      color={color}
      variant={reminder.state === 'pending' ? 'filled' : 'outlined'}
      label={t(`agenda.state.${reminder.state}`)}
    />
  );
}

/** Reminders as a list, each with its state, and for its owner or an administrator: edit, done, dismiss (confirmed). */
export function ReminderList({ reminders }: { reminders: Reminder[] }) {
  const { t } = useTranslation();
  const notify = useNotify();
  const session = useSession();
  const action = useReminderAction();
  const [editing, setEditing] = useState<Reminder | null>(null);
  const [dismissing, setDismissing] = useState<Reminder | null>(null);
  const mayChange = (r: Reminder) => isAdminLike(session.role) || r.userId === session.user?.id;
  const run = async (a: Parameters<typeof action.mutateAsync>[0]) => {
    try {
      notify((await action.mutateAsync(a)).message);
    } catch (err) {
      notify(err instanceof ApiError ? err.message : t('common.error'), 'warning');
    }
  };
  return (
    <>
      <Box
        component="ul"
        sx={{ listStyle: 'none', m: 0, p: 0 }}
        aria-label={t('agenda.reminder.title')}
      >
        {reminders.map((r) => (
          <Box
            component="li"
            key={r.id}
            data-reminder-state={r.overdue ? 'overdue' : r.state}
            sx={{
              borderLeft: 4,
              borderColor: r.overdue
                ? 'error.main'
                : r.state === 'pending'
                  ? 'warning.main'
                  : 'divider',
              bgcolor: r.overdue ? 'rgba(211,47,47,0.06)' : undefined,
              pl: 1.5,
              py: 0.75,
              mb: 1,
            }}
          >
            <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
              <Box sx={{ flex: 1, minWidth: 0 }}>
                <Stack direction="row" spacing={1} sx={{ alignItems: 'center', flexWrap: 'wrap' }}>
                  <Typography variant="body2" sx={{ fontWeight: 600 }}>
                    {chileDateTime(r.dueAt)}
                  </Typography>
                  <ReminderStateChip reminder={r} />
                  <Typography variant="caption" color="text.secondary">
                    {r.userName}
                  </Typography>
                </Stack>
                {r.comment && (
                  <Typography
                    variant="body2"
                    color="text.secondary"
                    sx={{ overflowWrap: 'anywhere' }}
                  >
                    {r.comment}
                  </Typography>
                )}
              </Box>
              {mayChange(r) && (
                <>
                  <Tooltip title={t('common.edit')}>
                    <IconButton
                      size="small"
                      aria-label={t('agenda.reminder.edit')}
                      onClick={() => setEditing(r)}
                    >
                      <EditIcon fontSize="small" />
                    </IconButton>
                  </Tooltip>
                  {r.state === 'pending' && (
                    <>
                      <Tooltip title={t('agenda.reminder.complete')}>
                        <IconButton
                          size="small"
                          aria-label={t('agenda.reminder.complete')}
                          onClick={() => void run({ kind: 'complete', id: r.id })}
                          disabled={action.isPending}
                        >
                          <CheckIcon fontSize="small" />
                        </IconButton>
                      </Tooltip>
                      <Tooltip title={t('agenda.reminder.dismiss')}>
                        <IconButton
                          size="small"
                          aria-label={t('agenda.reminder.dismiss')}
                          onClick={() => setDismissing(r)}
                          disabled={action.isPending}
                        >
                          <CloseIcon fontSize="small" />
                        </IconButton>
                      </Tooltip>
                    </>
                  )}
                </>
              )}
            </Stack>
          </Box>
        ))}
      </Box>
      {editing && <ReminderDialog reminder={editing} onClose={() => setEditing(null)} />}
      <ConfirmDialog
        open={Boolean(dismissing)}
        message={t('agenda.reminder.dismissConfirm')}
        onCancel={() => setDismissing(null)}
        onConfirm={async () => {
          if (dismissing) await run({ kind: 'dismiss', id: dismissing.id });
          setDismissing(null);
        }}
      />
    </>
  );
}
