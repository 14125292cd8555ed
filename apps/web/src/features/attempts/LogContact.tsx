import {
  Alert,
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogContentText,
  DialogTitle,
  List,
  ListItemButton,
  ListItemText,
} from '@mui/material';
import { mayTouchTicket, type RoleKey } from '@sigaf/contract';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useFormat } from '../../lib/format';
import { useSession } from '../../lib/session';
import { useEnrolmentTickets, type Ticket } from '../tickets/api';
import { CHANNEL_MEDIUM, type ContactChannel, type ContactTarget } from '../tickets/ContactActions';
import { CreateMassiveDialog } from '../tickets/CreateTickets';
import { LogAttemptDialog } from './LogAttemptDialog';
import { useCatalogueText } from '../../lib/catalogue';

/** The student's open tickets the caller may log an attempt on, newest first. */
export function ticketsToLog(
  tickets: Ticket[],
  me: { id: number; role: RoleKey | null | undefined },
): Ticket[] {
  return tickets
    .filter(
      (k) =>
        !k.close &&
        mayTouchTicket(me, { assignedId: k.userAssigned.id, creatorId: k.userCreated.id }),
    )
    .sort((a, b) => b.createdAtIso.localeCompare(a.createdAtIso));
}

/**
 * Logs a call or a WhatsApp message just made to a student: an attempt (medium set, outgoing) on
 * the student's open ticket, asking which when there are several; with none, a new ticket
 * (Origen "Saliente", a phone contact) whose first attempt has the medium set.
 */
export function LogContact({
  channel,
  target,
  onClose,
}: {
  channel: ContactChannel;
  target: ContactTarget;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const session = useSession();
  const tickets = useEnrolmentTickets(target.enrolmentId);
  const [chosen, setChosen] = useState<Ticket | null>(null);
  // Read again on opening: a ticket opened or closed a moment ago counts.
  if (tickets.isPending || (tickets.isFetching && !tickets.isFetchedAfterMount)) return null;
  if (tickets.isError)
    return (
      <Dialog open onClose={onClose} aria-labelledby="log-contact-title">
        <DialogTitle id="log-contact-title">{t('contact.log.title')}</DialogTitle>
        <DialogContent>
          <Alert severity="error">{t('common.loadError')}</Alert>
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose}>{t('common.close')}</Button>
        </DialogActions>
      </Dialog>
    );
  const open = session.user
    ? ticketsToLog(tickets.data, { id: session.user.id, role: session.role })
    : [];
  const ticket = chosen ?? (open.length === 1 ? open[0]! : null);
  if (ticket)
    return (
      <LogAttemptDialog
        ticketId={ticket.id}
        ticketCode={ticket.ticketCode}
        student={`${target.name} ${target.lastName}`}
        medium={CHANNEL_MEDIUM[channel]}
        onClose={onClose}
      />
    );
  if (open.length === 0)
    return (
      <CreateMassiveDialog
        course={target.course}
        initialSelection={[target.enrolmentId]}
        preset={{ source: 'outgoing', type: 'phone', medium: CHANNEL_MEDIUM[channel] }}
        onClose={onClose}
      />
    );
  return <ChooseTicket tickets={open} target={target} onChoose={setChosen} onClose={onClose} />;
}

/** Which of the student's open tickets the contact goes to. */
function ChooseTicket({
  tickets,
  target,
  onChoose,
  onClose,
}: {
  tickets: Ticket[];
  target: ContactTarget;
  onChoose: (ticket: Ticket) => void;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const cat = useCatalogueText();
  const f = useFormat();
  return (
    <Dialog open onClose={onClose} maxWidth="xs" fullWidth aria-labelledby="log-contact-title">
      <DialogTitle id="log-contact-title">{t('contact.log.choose')}</DialogTitle>
      <DialogContent>
        <DialogContentText>
          {t('contact.log.several', {
            name: `${target.name} ${target.lastName}`,
            count: tickets.length,
          })}
        </DialogContentText>
        <List aria-label={t('contact.log.choose')}>
          {tickets.map((k) => (
            <ListItemButton key={k.id} onClick={() => onChoose(k)}>
              <ListItemText
                primary={`${k.ticketCode} · ${cat(k.typeTicket.description)}`}
                secondary={t('contact.log.opened', { date: f.date(k.createdAtIso) })}
              />
            </ListItemButton>
          ))}
        </List>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t('common.cancel')}</Button>
      </DialogActions>
    </Dialog>
  );
}
