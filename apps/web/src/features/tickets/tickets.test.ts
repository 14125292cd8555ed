import { chileParts, FORM_MSG, TICKET_MSG } from '@sigaf/contract';
import { describe, expect, it } from 'vitest';
import type { Ticket } from './api';
import { lastAccess, lockSince, stamp } from './format';
import {
  createSchemaFor,
  createTicketSchema,
  OPTION_FIELDS,
  splitCreateValues,
  ticketFormValues,
  workTicketSchema,
} from './schemas';

const messages = (issues: Array<{ path: PropertyKey[]; message: string }>) =>
  Object.fromEntries(issues.map((i) => [String(i.path[0]), i.message]));

describe('ticket display helpers', () => {
  it('dates read dd-mm-yyyy HH:mm; a lock taken today shows only its time', () => {
    expect(stamp({ createdAt: '05-03-2026', createdTime: '09:07' })).toBe('05-03-2026 09:07');
    const today = chileParts(new Date()).date;
    expect(lockSince({ createdAt: today, since: '14:05' })).toBe('14:05');
    expect(lockSince({ createdAt: '01-01-2020', since: '14:05' })).toBe('01-01-2020 14:05');
  });

  it("last access: Moodle's own text first, then the moment in Chilean time, else nothing", () => {
    expect(
      lastAccess({ lastAccessText: '3 días 4 horas', lastAccess: '2026-03-05T12:00:00Z' }),
    ).toBe('3 días 4 horas');
    expect(lastAccess({ lastAccessText: null, lastAccess: '2026-03-05T12:00:00Z' })).toBe(
      '05-03-2026 09:00',
    );
    expect(lastAccess({ lastAccessText: null, lastAccess: null })).toBeNull();
  });
});

describe('ticket form schemas', () => {
  const empty = {
    ...Object.fromEntries(OPTION_FIELDS.map((f) => [f, ''])),
    status_detail_ticket_id: '',
    comment: '   ',
  };

  it('creating: the six options and the attempt are required, in Spanish', () => {
    const res = createTicketSchema.safeParse(empty);
    expect(res.success).toBe(false);
    expect(messages(res.error!.issues)).toEqual({
      ...Object.fromEntries(OPTION_FIELDS.map((f) => [f, FORM_MSG.required])),
      status_detail_ticket_id: FORM_MSG.required,
      comment: TICKET_MSG.commentRequired,
    });
  });

  it('creating: valid values become ids and a trimmed comment, split into the two calls', () => {
    const values = createTicketSchema.parse({
      ...Object.fromEntries(OPTION_FIELDS.map((f, i) => [f, String(i + 1)])),
      status_detail_ticket_id: 9,
      comment: '  Llamar el lunes \n',
    });
    expect(splitCreateValues(values)).toEqual({
      options: {
        source_ticket_id: 1,
        type_ticket_id: 2,
        motive_ticket_id: 3,
        priority_ticket_id: 4,
        user_assigned_id: 5,
        status_ticket_id: 6,
      },
      attempt: { status_detail_ticket_id: 9, comment: 'Llamar el lunes' },
    });
  });

  it('creating without a first attempt: only the six options, no attempt call', () => {
    const values = createSchemaFor({ with_attempt: '' }).parse({
      ...Object.fromEntries(OPTION_FIELDS.map((f, i) => [f, String(i + 1)])),
      status_detail_ticket_id: '',
      comment: '',
    });
    expect(splitCreateValues(values)).toEqual({
      options: {
        source_ticket_id: 1,
        type_ticket_id: 2,
        motive_ticket_id: 3,
        priority_ticket_id: 4,
        user_assigned_id: 5,
        status_ticket_id: 6,
      },
      attempt: null,
    });
    expect(createSchemaFor({ with_attempt: '1' })).toBe(createTicketSchema);
  });

  it('working a ticket: the operator may be left empty (none); status, priority and the attempt may not', () => {
    const ok = workTicketSchema.parse({
      status_ticket_id: 1,
      priority_ticket_id: 2,
      user_assigned_id: '',
      status_detail_ticket_id: 3,
      comment: 'Contestó',
    });
    expect(ok.user_assigned_id).toBeNull();
    const bad = workTicketSchema.safeParse({
      status_ticket_id: '',
      priority_ticket_id: 2,
      user_assigned_id: 5,
      status_detail_ticket_id: '',
      comment: '',
    });
    expect(Object.keys(messages(bad.error!.issues)).sort()).toEqual([
      'comment',
      'status_detail_ticket_id',
      'status_ticket_id',
    ]);
  });

  it("a ticket's current options fill the form; no operator is an empty choice", () => {
    const opt = (id: number) => ({ id, description: `d${id}`, key: null });
    const t = {
      sourceTicket: opt(1),
      typeTicket: opt(2),
      motiveTicket: opt(3),
      priorityTicket: opt(4),
      statusTicket: opt(6),
      userAssigned: null,
    } as unknown as Ticket;
    expect(ticketFormValues(t)).toEqual({
      source_ticket_id: 1,
      type_ticket_id: 2,
      motive_ticket_id: 3,
      priority_ticket_id: 4,
      user_assigned_id: '',
      status_ticket_id: 6,
    });
  });
});
