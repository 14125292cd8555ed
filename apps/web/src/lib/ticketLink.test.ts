import { describe, expect, it } from 'vitest';
import { readTicketLink, ticketListHref } from './ticketLink';

describe('ticket list links', () => {
  it('round-trips a course and its filters', () => {
    const href = ticketListHref(7, { status: 'closed', source_ticket_id: 2, user_assigned_id: 5 });
    expect(href).toBe('/my/ticket?course=7&status=closed&source_ticket_id=2&user_assigned_id=5');
    const read = readTicketLink(new URLSearchParams(href.split('?')[1]));
    expect(read.courseId).toBe(7);
    expect(read.filters).toEqual({ status: 'closed', source_ticket_id: 2, user_assigned_id: 5 });
  });

  it('ignores malformed values and unrelated parameters', () => {
    const read = readTicketLink(
      new URLSearchParams(
        'course=x&status=maybe&motive_ticket_id=-1&from=2026-13&to=2026-11-02&ticket=4',
      ),
    );
    expect(read.courseId).toBeNull();
    expect(read.filters).toEqual({ to: '2026-11-02' });
  });

  it('gives the same key whatever the order and the open ticket', () => {
    const a = readTicketLink(new URLSearchParams('course=1&status=open&type_ticket_id=3'));
    const b = readTicketLink(new URLSearchParams('type_ticket_id=3&ticket=9&status=open&course=1'));
    expect(a.key).toBe(b.key);
    expect(readTicketLink(new URLSearchParams('course=1&status=closed')).key).not.toBe(a.key);
  });
});
