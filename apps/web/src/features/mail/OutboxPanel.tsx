import {
  chileDateTime,
  MAIL_STATUSES,
  type MailMessageProps,
  type MailStatus,
} from '@sigaf/contract';
import RefreshIcon from '@mui/icons-material/Refresh';
import ReplayIcon from '@mui/icons-material/Replay';
import {
  Alert,
  Box,
  Chip,
  IconButton,
  LinearProgress,
  MenuItem,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TablePagination,
  TableRow,
  TextField,
  Tooltip,
  Typography,
} from '@mui/material';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNotify } from '../../components/Snackbar';
import { ApiError } from '../../lib/api';
import { displayedRows } from '../../lib/format';
import { retryMessage, useOutbox } from './api';

const STATUS_COLOR: Record<MailStatus, 'default' | 'info' | 'success' | 'error'> = {
  queued: 'default',
  sending: 'info',
  sent: 'success',
  failed: 'error',
};

export interface OutboxPanelProps {
  /** Only this course's messages. */
  courseId?: number | null;
  /** Only this ticket's messages. */
  ticketId?: number | null;
  perPage?: number;
}

/**
 * The outbox: every message with its delivery state, attempts and last error, newest first;
 * a failed message can be sent again. Operators see the messages they sent.
 */
export function OutboxPanel({
  courseId,
  ticketId,
  perPage: initialPerPage = 10,
}: OutboxPanelProps) {
  const { t, i18n } = useTranslation();
  const notify = useNotify();
  const queryClient = useQueryClient();
  const [status, setStatus] = useState<MailStatus | ''>('');
  const [page, setPage] = useState(0);
  const [perPage, setPerPage] = useState(initialPerPage);
  const [retrying, setRetrying] = useState<number | null>(null);
  const outbox = useOutbox({
    status: status || undefined,
    course_id: courseId ?? undefined,
    ticket_id: ticketId ?? undefined,
    page: page + 1,
    perPage,
  });
  const rows = outbox.data?.collections.map((c) => c.properties) ?? [];
  const total = outbox.data?.meta?.total ?? rows.length;

  const retry = async (m: MailMessageProps) => {
    setRetrying(m.id);
    try {
      const res = await retryMessage(m.id);
      notify(res.message);
      await queryClient.invalidateQueries({ queryKey: ['mail-outbox'] });
    } catch (err) {
      notify(err instanceof ApiError ? err.message : t('common.error'), 'error');
    } finally {
      setRetrying(null);
    }
  };

  return (
    <Box>
      <Stack direction="row" spacing={2} sx={{ alignItems: 'center', mb: 1 }}>
        <TextField
          select
          size="small"
          label={t('mail.outbox.status')}
          value={status}
          onChange={(e) => {
            setStatus(e.target.value as MailStatus | '');
            setPage(0);
          }}
          sx={{ minWidth: 180 }}
        >
          <MenuItem value="">{t('mail.outbox.allStatuses')}</MenuItem>
          {MAIL_STATUSES.map((s) => (
            <MenuItem key={s} value={s}>
              {t(`mail.status.${s}`)}
            </MenuItem>
          ))}
        </TextField>
        <Typography variant="body2" color="text.secondary" sx={{ flexGrow: 1 }}>
          {t('mail.outbox.count', { count: total })}
        </Typography>
        <Tooltip title={t('mail.outbox.refresh')}>
          <IconButton aria-label={t('mail.outbox.refresh')} onClick={() => void outbox.refetch()}>
            <RefreshIcon />
          </IconButton>
        </Tooltip>
      </Stack>
      {outbox.isFetching && <LinearProgress />}
      {outbox.isError && (
        <Alert severity="error">
          {outbox.error instanceof ApiError ? outbox.error.message : t('common.loadError')}
        </Alert>
      )}
      <TableContainer>
        <Table size="small" aria-label={t('mail.outbox.title')}>
          <TableHead>
            <TableRow>
              {/* Five columns, so that the table fits a dialog at 1366 px: the attempts, the last
                  error and the retry go with the status. */}
              {['createdAt', 'to', 'subject', 'ticket', 'status'].map((h) => (
                <TableCell key={h} sx={{ fontWeight: 'bold', color: 'secondary.main' }}>
                  {t(`mail.outbox.${h}`)}
                </TableCell>
              ))}
            </TableRow>
          </TableHead>
          <TableBody>
            {rows.map((m) => (
              <TableRow key={m.id} hover>
                <TableCell sx={{ whiteSpace: 'nowrap' }}>{chileDateTime(m.createdAt)}</TableCell>
                <TableCell>
                  {m.student && (
                    <Typography variant="body2" component="div" sx={{ fontWeight: 600 }}>
                      {m.student}
                    </Typography>
                  )}
                  {m.toAddress}
                  {m.cc.length > 0 && (
                    <Typography variant="caption" color="text.secondary" component="div">
                      {t('mail.outbox.ccList', { list: m.cc.join(', ') })}
                    </Typography>
                  )}
                </TableCell>
                <TableCell>
                  {m.subject}
                  {m.attachments.length > 0 && (
                    <Typography variant="caption" color="text.secondary" component="div">
                      {t('mail.outbox.attachments', { count: m.attachments.length })}
                    </Typography>
                  )}
                </TableCell>
                <TableCell>{m.ticketCode ?? t('common.none')}</TableCell>
                <TableCell>
                  <Stack direction="row" spacing={0.5} sx={{ alignItems: 'center' }}>
                    <Tooltip
                      title={
                        m.sentAt ? t('mail.outbox.sentAt', { date: chileDateTime(m.sentAt) }) : ''
                      }
                    >
                      <Chip
                        size="small"
                        color={STATUS_COLOR[m.status]}
                        label={t(`mail.status.${m.status}`)}
                      />
                    </Tooltip>
                    {m.status === 'failed' && (
                      <Tooltip title={t('mail.outbox.retry')}>
                        <span>
                          <IconButton
                            size="small"
                            color="primary"
                            aria-label={t('mail.outbox.retry')}
                            disabled={retrying === m.id}
                            onClick={() => void retry(m)}
                          >
                            <ReplayIcon fontSize="small" />
                          </IconButton>
                        </span>
                      </Tooltip>
                    )}
                  </Stack>
                  <Typography variant="caption" color="text.secondary" component="div">
                    {t('mail.outbox.attemptsCount', { count: m.attempts })}
                  </Typography>
                  {m.status !== 'sent' && m.lastError && (
                    <Typography
                      variant="caption"
                      color="error"
                      component="div"
                      sx={{ maxWidth: 260, overflowWrap: 'anywhere' }}
                    >
                      {m.lastError}
                    </Typography>
                  )}
                </TableCell>
              </TableRow>
            ))}
            {!rows.length && !outbox.isFetching && (
              <TableRow>
                <TableCell colSpan={5} align="center">
                  {t('mail.outbox.empty')}
                </TableCell>
              </TableRow>
            )}
          </TableBody>
        </Table>
      </TableContainer>
      <TablePagination
        component="div"
        count={total}
        page={page}
        rowsPerPage={perPage}
        // The dialogs open with 5 rows: an option of its own, or the select shows no number.
        rowsPerPageOptions={[...new Set([initialPerPage, 10, 25, 50])].sort((a, b) => a - b)}
        onPageChange={(_, p) => setPage(p)}
        onRowsPerPageChange={(e) => {
          setPerPage(Number(e.target.value));
          setPage(0);
        }}
        labelRowsPerPage={t('mail.outbox.perPage')}
        // Wraps on a narrow dialog instead of cutting the rows-per-page number off.
        sx={{ '& .MuiTablePagination-toolbar': { flexWrap: 'wrap', pl: 0 } }}
        labelDisplayedRows={(rows) => displayedRows(t, i18n.language, rows)}
      />
    </Box>
  );
}
