import AlarmAddIcon from '@mui/icons-material/AlarmAdd';
import { Alert, Box, Button, Skeleton, Typography } from '@mui/material';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useReminders } from './api';
import { ReminderDialog } from './ReminderDialog';
import { ReminderList } from './ReminderList';

/** The ticket dialog's "Recordatorios" section: the ticket's reminders with their state, and "add a reminder". */
export function TicketReminders({ ticketId }: { ticketId: number }) {
  const { t } = useTranslation();
  const reminders = useReminders({ ticket_id: ticketId, sort: 'due_at', order: 'desc' });
  const [adding, setAdding] = useState(false);
  return (
    <Box component="section" aria-labelledby={`reminders-${ticketId}`} sx={{ mb: 3 }}>
      <Box sx={{ display: 'flex', alignItems: 'center', mb: 1 }}>
        <Typography
          id={`reminders-${ticketId}`}
          variant="subtitle1"
          component="h2"
          sx={{ fontWeight: 700, color: 'primary.main', flex: 1 }}
        >
          {t('agenda.reminder.title')}
        </Typography>
        <Button size="small" startIcon={<AlarmAddIcon />} onClick={() => setAdding(true)}>
          {t('agenda.reminder.add')}
        </Button>
      </Box>
      {reminders.isPending && <Skeleton variant="rounded" height={40} />}
      {reminders.isError && <Alert severity="error">{t('common.loadError')}</Alert>}
      {reminders.data?.rows.length === 0 && (
        <Typography variant="body2" color="text.secondary">
          {t('agenda.reminder.empty')}
        </Typography>
      )}
      {reminders.data && reminders.data.rows.length > 0 && (
        <ReminderList reminders={reminders.data.rows} />
      )}
      {adding && <ReminderDialog ticketId={ticketId} onClose={() => setAdding(false)} />}
    </Box>
  );
}
