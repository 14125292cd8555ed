import { describe, expect, it } from 'vitest';
import type { Ticket } from '../tickets/api';
import { CHANNEL_MEDIUM } from '../tickets/ContactActions';
import { ticketsToLog } from './LogContact';

const ticket = (id: number, close: boolean, assigned: number, creator: number, created: string) =>
  ({
    id,
    ticketCode: `T-${id}`,
    close,
    userAssigned: { id: assigned, name: '' },
    userCreated: { id: creator, name: '' },
    createdAtIso: created,
  }) as Ticket;

const history = [
  ticket(1, false, 5, 9, '2026-11-02T12:00:00.000Z'),
  ticket(2, true, 5, 9, '2026-11-20T12:00:00.000Z'),
  ticket(3, false, 0, 5, '2026-11-10T12:00:00.000Z'),
  ticket(4, false, 7, 7, '2026-11-15T12:00:00.000Z'),
];

describe('the ticket a call or a WhatsApp message is logged on', () => {
  it("an operator: the student's open tickets assigned to them or created by them, newest first", () => {
    expect(ticketsToLog(history, { id: 5, role: 'operator' }).map((k) => k.id)).toEqual([3, 1]);
  });

  it('an administrator: every open ticket of the student', () => {
    expect(ticketsToLog(history, { id: 1, role: 'admin' }).map((k) => k.id)).toEqual([4, 3, 1]);
  });

  it('none open: nothing to log on (a new ticket is offered)', () => {
    expect(ticketsToLog([history[1]!], { id: 5, role: 'operator' })).toEqual([]);
  });

  it('the attempt says how: a call or WhatsApp', () => {
    expect(CHANNEL_MEDIUM).toEqual({ phone: 'call', whatsapp: 'whatsapp' });
  });
});
