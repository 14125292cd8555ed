/** A ticket's history (ticket_history): what each entry says, in Spanish. */

/** The `action` of a ticket_history entry, and its Spanish label. */
export const TICKET_HISTORY_ACTIONS = {
  create: 'Creación',
  update: 'Modificación',
  add_attempt: 'Intento de contacto registrado',
  update_attempt: 'Intento de contacto modificado',
  delete_attempt: 'Intento de contacto eliminado',
  unlock: 'Desbloqueo',
} as const;
export type TicketHistoryAction = keyof typeof TICKET_HISTORY_ACTIONS;

/** Labels of the fields a history entry's `changes` may name ({field: [from, to]}). */
export const TICKET_FIELD_LABELS: Record<string, string> = {
  ticketCode: 'Código',
  statusTicket: 'Estado',
  typeTicket: 'Tipo',
  priorityTicket: 'Prioridad',
  sourceTicket: 'Origen',
  motiveTicket: 'Motivo',
  userAssigned: 'Operador',
  closingDate: 'Fecha de cierre',
  statusDetailTicket: 'Intento de contacto',
  comment: 'Observación',
  registeredBy: 'Registrado por',
  registeredAt: 'Fecha de registro',
  lockedBy: 'Bloqueado por',
};
