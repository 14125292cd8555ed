import CallIcon from '@mui/icons-material/Call';
import DeleteIcon from '@mui/icons-material/Delete';
import EmailIcon from '@mui/icons-material/Email';
import {
  Box,
  IconButton,
  Skeleton,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  Tooltip,
  Typography,
} from '@mui/material';
import { useTranslation } from 'react-i18next';
import { useEnrolmentTickets, type Option, type Ticket, type TicketDetail } from './api';
import { useTicketOutcomes } from '../outcomes/api';
import { AttemptOutcomeLine } from '../outcomes/OutcomeLines';
import { stateLook } from '@sigaf/contract';
import { StateChip } from '../../components/StateChip';
import { stamp } from './format';
import { useCatalogueText } from '../../lib/catalogue';

/** A ticket's contact attempts, oldest first, as plain text (never HTML), each with what the student did in Moodle after it. */
export function AttemptTimeline({
  details,
  onDelete,
}: {
  details: TicketDetail[];
  onDelete?: (d: TicketDetail) => void;
}) {
  const { t } = useTranslation();
  const outcomes = useTicketOutcomes(details[0]?.ticketId, details.length).data?.attempts;
  if (details.length === 0) {
    return (
      <Typography variant="body2" sx={{ color: 'text.secondary', fontStyle: 'italic', py: 1 }}>
        {t('tickets.attempt.none')}
      </Typography>
    );
  }
  return (
    <Box
      component="ol"
      aria-label={t('tickets.attempt.title')}
      sx={{ listStyle: 'none', m: 0, p: 0 }}
    >
      {details.map((d, i) => {
        return (
          <Box
            component="li"
            key={d.id}
            sx={{
              position: 'relative',
              pl: 3,
              pb: i === details.length - 1 ? 0 : 2,
              '&::before': {
                content: '""',
                position: 'absolute',
                left: 7,
                top: 14,
                bottom: 0,
                width: 2,
                bgcolor: i === details.length - 1 ? 'transparent' : 'divider',
              },
            }}
          >
            <Box
              sx={{
                position: 'absolute',
                left: 0,
                top: 6,
                width: 16,
                height: 16,
                borderRadius: '50%',
                bgcolor: stateLook('attemptResult', d.statusDetailTicket.key)?.color ?? 'grey.500',
                border: 3,
                borderColor: 'background.paper',
              }}
            />
            <Stack
              direction="row"
              spacing={1}
              sx={{ alignItems: 'center', flexWrap: 'wrap', rowGap: 0.5 }}
            >
              <Typography variant="body2" sx={{ fontWeight: 600 }}>
                #{i + 1}
              </Typography>
              <StateChip
                kind="attemptResult"
                stateKey={d.statusDetailTicket.key}
                label={d.statusDetailTicket.description}
              />
              <Typography variant="caption" sx={{ color: 'text.secondary' }}>
                {d.createdAt} · {d.userCreated.name}
              </Typography>
              {onDelete && (
                <Tooltip title={t('tickets.attempt.delete')}>
                  <IconButton
                    size="small"
                    aria-label={t('tickets.attempt.deleteNamed', { n: i + 1 })}
                    onClick={() => onDelete(d)}
                    sx={{ ml: 'auto' }}
                  >
                    <DeleteIcon fontSize="small" />
                  </IconButton>
                </Tooltip>
              )}
            </Stack>
            <Typography
              variant="body2"
              sx={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere', mt: 0.5 }}
            >
              {d.comment}
            </Typography>
            <AttemptOutcomeLine outcome={outcomes?.find((o) => o.attemptId === d.id)} />
          </Box>
        );
      })}
    </Box>
  );
}

export function TypeIcon({ type }: { type: Option }) {
  const name = useCatalogueText()(type.description);
  const Icon = type.key === 'email' ? EmailIcon : CallIcon;
  return (
    <Tooltip title={name}>
      <Icon fontSize="small" color="action" aria-label={name} role="img" />
    </Tooltip>
  );
}

export function PriorityChip({ priority }: { priority: Option }) {
  const cat = useCatalogueText();
  return (
    <StateChip
      kind="priority"
      stateKey={priority.key}
      label={cat(priority.description).toUpperCase()}
      sx={{ fontWeight: 600, minWidth: 64 }}
    />
  );
}

/** The other tickets of the same student in the same course, every status. */
export function StudentTickets({
  enrolmentId,
  exclude,
  onOpen,
}: {
  enrolmentId: number;
  exclude?: number;
  onOpen?: (t: Ticket) => void;
}) {
  const { t } = useTranslation();
  const cat = useCatalogueText();
  const { data, isLoading, isError } = useEnrolmentTickets(enrolmentId);
  if (isLoading) return <Skeleton variant="rounded" height={72} />;
  if (isError) return <Typography sx={{ color: 'error.main' }}>{t('common.loadError')}</Typography>;
  const rows = (data ?? []).filter((x) => x.id !== exclude);
  if (rows.length === 0) {
    return (
      <Typography variant="body2" sx={{ color: 'text.secondary', fontStyle: 'italic' }}>
        {t(exclude ? 'tickets.history.noneOther' : 'tickets.history.none')}
      </Typography>
    );
  }
  return (
    // Three columns, so that the table fits the ticket dialog's narrow column at 1366 px: the type
    // and motive go with the code, the attempts with the status.
    <Box sx={{ overflowX: 'auto', maxHeight: 320 }}>
      <Table size="small" stickyHeader aria-label={t('tickets.history.title')}>
        <TableHead>
          <TableRow>
            {(['code', 'status', 'createdAt'] as const).map((c) => (
              <TableCell
                key={c}
                sx={{ fontWeight: 700, color: 'secondary.main', whiteSpace: 'nowrap' }}
              >
                {t(`tickets.columns.${c}`)}
              </TableCell>
            ))}
          </TableRow>
        </TableHead>
        <TableBody>
          {rows.map((r) => (
            <TableRow
              key={r.id}
              hover={Boolean(onOpen)}
              onClick={onOpen ? () => onOpen(r) : undefined}
              onKeyDown={onOpen ? (e) => e.key === 'Enter' && onOpen(r) : undefined}
              tabIndex={onOpen ? 0 : undefined}
              aria-label={onOpen ? t('tickets.history.open', { code: r.ticketCode }) : undefined}
              sx={{ cursor: onOpen ? 'pointer' : undefined }}
            >
              <TableCell>
                <Stack direction="row" spacing={0.5} sx={{ alignItems: 'center' }}>
                  <TypeIcon type={r.typeTicket} />
                  <span>{r.ticketCode}</span>
                </Stack>
                <Typography variant="caption" sx={{ color: 'text.secondary' }}>
                  {cat(r.motiveTicket.description)}
                </Typography>
              </TableCell>
              <TableCell>
                <StateChip
                  kind="ticketStatus"
                  stateKey={r.statusTicket.key}
                  label={r.statusTicket.description}
                />
                <Typography variant="caption" component="div" sx={{ color: 'text.secondary' }}>
                  {t('tickets.row.attempts', { count: r.attempts })}
                </Typography>
              </TableCell>
              <TableCell sx={{ whiteSpace: 'nowrap' }}>{stamp(r)}</TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </Box>
  );
}
