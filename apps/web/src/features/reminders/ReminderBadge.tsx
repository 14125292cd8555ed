import { chileDateTime, PERMISSIONS } from '@sigaf/contract';
import NotificationsIcon from '@mui/icons-material/Notifications';
import {
  Badge,
  Divider,
  IconButton,
  ListItemText,
  Menu,
  MenuItem,
  Tooltip,
  Typography,
} from '@mui/material';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useSession } from '../../lib/session';
import { useDueCount, useReminders } from './api';

/**
 * The app bar's bell: how many of my pending reminders are due (asked every 30 s and when the
 * window regains focus, no reload), and a menu listing them; a click opens the ticket.
 */
export function ReminderBadge() {
  const { t } = useTranslation();
  const session = useSession();
  const navigate = useNavigate();
  const allowed = session.role !== null && PERMISSIONS.reminderWork.includes(session.role);
  const count = useDueCount(allowed);
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const list = useReminders(
    { mine: true, due: true, page: 1, perPage: 20, sort: 'due_at', order: 'asc' },
    allowed && Boolean(anchor),
  );
  if (!allowed) return null;
  const n = count.data ?? 0;
  return (
    <>
      <Tooltip title={t('agenda.badge.title')}>
        <IconButton
          aria-label={t('agenda.badge.label', { count: n })}
          onClick={(e) => setAnchor(e.currentTarget)}
          sx={{ mr: 1 }}
          data-testid="reminder-badge"
        >
          <Badge badgeContent={n} color="error" max={99}>
            <NotificationsIcon />
          </Badge>
        </IconButton>
      </Tooltip>
      <Menu
        anchorEl={anchor}
        open={Boolean(anchor)}
        onClose={() => setAnchor(null)}
        slotProps={{ paper: { sx: { maxWidth: 380 } } }}
      >
        <Typography variant="subtitle2" sx={{ px: 2, py: 1 }}>
          {t('agenda.badge.title')}
        </Typography>
        <Divider />
        {list.isPending && <MenuItem disabled>{t('agenda.loading')}</MenuItem>}
        {list.isError && <MenuItem disabled>{t('common.loadError')}</MenuItem>}
        {list.data?.rows.length === 0 && <MenuItem disabled>{t('agenda.badge.empty')}</MenuItem>}
        {list.data?.rows.map((r) => (
          <MenuItem
            key={r.id}
            onClick={() => {
              setAnchor(null);
              navigate(`/my/ticket?ticket=${r.ticketId}`);
            }}
            sx={{
              borderLeft: 4,
              borderColor: r.overdue ? 'error.main' : 'warning.main',
              whiteSpace: 'normal',
            }}
          >
            <ListItemText
              primary={`${r.ticketCode} · ${r.student}`}
              secondary={`${chileDateTime(r.dueAt)}${r.comment ? ` · ${r.comment}` : ''}`}
            />
          </MenuItem>
        ))}
        <Divider />
        <MenuItem
          onClick={() => {
            setAnchor(null);
            navigate('/my/agenda');
          }}
        >
          {t('agenda.badge.openAgenda')}
        </MenuItem>
      </Menu>
    </>
  );
}
