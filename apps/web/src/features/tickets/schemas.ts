import { FORM_MSG, ticketDetailCreateSchema } from '@sigaf/contract';
import { z } from 'zod';
import type { AttemptBody, Ticket, TicketOptionsBody } from './api';

/** Form schemas of the ticket screens, built on the contract's (same comment rule and messages as the server). */

const empty = (v: unknown) => (v === '' || v === null ? undefined : v);
/** A required select: "Es obligatorio." when left empty. */
const option = z.preprocess(
  empty,
  z.coerce.number({ error: FORM_MSG.required }).int(FORM_MSG.required).positive(FORM_MSG.required),
);
/** An optional select: empty means "none" (null). */
const optionalOption = z.preprocess(
  (v) => (v === '' || v === undefined ? null : v),
  z.coerce.number().int().positive().nullable(),
);

/** The six options of a ticket, in the order the screen shows them. */
export const OPTION_FIELDS = [
  'source_ticket_id',
  'type_ticket_id',
  'motive_ticket_id',
  'priority_ticket_id',
  'user_assigned_id',
  'status_ticket_id',
] as const;
export type OptionField = (typeof OPTION_FIELDS)[number];

export const ticketOptionsSchema = z.object({
  source_ticket_id: option,
  type_ticket_id: option,
  motive_ticket_id: option,
  priority_ticket_id: option,
  user_assigned_id: option,
  status_ticket_id: option,
});

/** A contact attempt: outcome and comment, both required. */
export const attemptSchema = z.object({
  status_detail_ticket_id: option,
  comment: ticketDetailCreateSchema.shape.comment,
});

/** Creating tickets: the six options and the first attempt. */
export const createTicketSchema = ticketOptionsSchema.extend(attemptSchema.shape);
/**
 * Creating tickets without a first attempt (unticked in the form): a ticket may be opened before
 * the first call, and one without attempts can be deleted.
 */
export const createTicketOnlySchema = ticketOptionsSchema;
export type CreateTicketValues =
  z.output<typeof createTicketSchema> | z.output<typeof createTicketOnlySchema>;

/** The schema the create form validates with: the attempt only when ticked. */
export const createSchemaFor = (values: FormValues) =>
  values.with_attempt === '' ? createTicketOnlySchema : createTicketSchema;

/** Working a ticket: status, priority and operator, plus the new attempt. */
export const workTicketSchema = attemptSchema.extend({
  status_ticket_id: option,
  priority_ticket_id: option,
  user_assigned_id: optionalOption,
});
export type WorkTicketValues =
  z.output<typeof workTicketSchema> | z.output<typeof workOptionsSchema>;

/** Working a ticket without a new attempt (status, priority or operator changed, outcome and comment left empty). */
export const workOptionsSchema = workTicketSchema.omit({
  status_detail_ticket_id: true,
  comment: true,
});
const WORK_OPTIONS = ['status_ticket_id', 'priority_ticket_id', 'user_assigned_id'] as const;

/**
 * The schema a worked ticket validates with: a change of status, priority or operator may be saved
 * alone (closing right after the call was logged asks for no second attempt); anything else, or any
 * attempt field filled in, needs the whole attempt.
 */
export function workSchemaFor(values: FormValues, initial: FormValues | null) {
  const noAttempt = !values.status_detail_ticket_id && !String(values.comment ?? '').trim();
  const changed =
    initial !== null &&
    WORK_OPTIONS.some((k) => String(values[k] ?? '') !== String(initial[k] ?? ''));
  return noAttempt && changed ? workOptionsSchema : workTicketSchema;
}

/** Whether the worked ticket's attempt is required as the form stands (its fields show "*" only then). */
export const attemptRequired = (values: FormValues, initial: FormValues | null) =>
  workSchemaFor(values, initial) === workTicketSchema;

/** Administration: every option editable, no attempt. */
export const adminTicketSchema = ticketOptionsSchema.extend({ user_assigned_id: optionalOption });
export type AdminTicketValues = z.output<typeof adminTicketSchema>;

/** What the form holds: ids or '' for "nothing chosen", the comment as typed. */
export type FormValues = Record<string, number | string | null>;

export function splitCreateValues(v: CreateTicketValues): {
  options: TicketOptionsBody;
  attempt: AttemptBody | null;
} {
  if (!('comment' in v)) return { options: v, attempt: null };
  const { status_detail_ticket_id, comment, ...options } = v;
  return { options, attempt: { status_detail_ticket_id, comment } };
}

/** The form values a ticket starts with. */
export function ticketFormValues(t: Ticket): FormValues {
  return {
    source_ticket_id: t.sourceTicket.id,
    type_ticket_id: t.typeTicket.id,
    motive_ticket_id: t.motiveTicket.id,
    priority_ticket_id: t.priorityTicket.id,
    // An unassigned ticket's operator has id 0.
    user_assigned_id: t.userAssigned?.id || '',
    status_ticket_id: t.statusTicket.id,
  };
}

export const emptyAttempt: FormValues = { status_detail_ticket_id: '', comment: '' };
/** A new ticket's first attempt is recorded unless unticked. */
export const withFirstAttempt: FormValues = { with_attempt: '1', ...emptyAttempt };
