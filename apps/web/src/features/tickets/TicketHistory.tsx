import { TICKET_FIELD_LABELS, type Collection } from '@sigaf/contract';
import {
  Accordion,
  AccordionDetails,
  AccordionSummary,
  Box,
  Skeleton,
  Typography,
} from '@mui/material';
import ExpandMoreIcon from '@mui/icons-material/ExpandMore';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { getData } from '../../lib/api';

interface HistoryEntry {
  id: number;
  actionText: string;
  user: { id: number; name: string } | null;
  changes: Record<string, [unknown, unknown]> | null;
  createdAt: string;
  createdTime: string;
}

const text = (v: unknown) => (v === null || v === undefined || v === '' ? '—' : String(v));

/**
 * The ticket's history (who changed what, and when; deleted attempts included), read when opened:
 * what "Quedará registrado en el historial del ticket" refers to.
 */
export function TicketHistory({ ticketId }: { ticketId: number }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const history = useQuery({
    queryKey: ['tickets', 'changes', ticketId],
    enabled: open,
    queryFn: async () =>
      (
        await getData<Collection<HistoryEntry>>(`/api/v2/tickets/${ticketId}/history`)
      ).collections.map((c) => c.properties),
  });
  return (
    <Accordion
      expanded={open}
      onChange={(_e, v) => setOpen(v)}
      disableGutters
      elevation={0}
      sx={{ border: 1, borderColor: 'divider', mt: 2 }}
    >
      <AccordionSummary
        expandIcon={<ExpandMoreIcon />}
        aria-controls={`ticket-history-${ticketId}`}
        id={`ticket-history-head-${ticketId}`}
      >
        <Typography sx={{ fontWeight: 600 }}>{t('tickets.changeHistory.title')}</Typography>
      </AccordionSummary>
      <AccordionDetails id={`ticket-history-${ticketId}`}>
        {history.isPending && <Skeleton variant="rounded" height={60} />}
        {history.isError && (
          <Typography sx={{ color: 'error.main' }}>{t('common.loadError')}</Typography>
        )}
        {history.data?.length === 0 && (
          <Typography color="text.secondary">{t('tickets.changeHistory.empty')}</Typography>
        )}
        <Box component="ol" sx={{ m: 0, pl: 2.5 }} aria-label={t('tickets.changeHistory.title')}>
          {history.data?.map((h) => (
            <li key={h.id}>
              <Typography variant="body2" sx={{ fontWeight: 600 }}>
                {`${h.createdAt} ${h.createdTime} · ${h.actionText}${h.user ? ` · ${h.user.name}` : ''}`}
              </Typography>
              {Object.entries(h.changes ?? {}).map(([field, [from, to]]) => (
                <Typography
                  key={field}
                  variant="body2"
                  color="text.secondary"
                  sx={{ overflowWrap: 'anywhere' }}
                >
                  {`${TICKET_FIELD_LABELS[field] ?? field}: ${text(from)} → ${text(to)}`}
                </Typography>
              ))}
            </li>
          ))}
        </Box>
      </AccordionDetails>
    </Accordion>
  );
}
