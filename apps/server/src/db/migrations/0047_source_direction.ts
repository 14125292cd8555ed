import { sql, type Kysely } from 'kysely';

/**
 * A ticket's Origen says only the direction of the contact (Entrante, Saliente); how it was made
 * (llamada, WhatsApp…) is each attempt's medium (0044). The two sources a contact from a student's
 * card used to open its ticket with, Teléfono and WhatsApp (keys `phone`, `whatsapp`), go: their
 * attempts without a medium take the one the source said, outgoing, and their tickets become
 * Saliente. Sources staff created themselves are left as they are.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`update ticket_details d
    set medium = case s.key when 'whatsapp' then 'whatsapp' else 'call' end,
      direction = coalesce(d.direction, 'outgoing')
    from tickets t join source_tickets s on s.id = t.source_ticket_id
    where t.id = d.ticket_id and s.key in ('phone', 'whatsapp') and d.medium is null`.execute(db);
  await sql`update tickets t set source_ticket_id = o.id
    from source_tickets s, source_tickets o
    where s.id = t.source_ticket_id and s.key in ('phone', 'whatsapp') and o.key = 'outgoing'`.execute(
    db,
  );
  await sql`delete from source_tickets s where s.key in ('phone', 'whatsapp')
    and exists (select 1 from source_tickets o where o.key = 'outgoing')
    and not exists (select 1 from tickets t where t.source_ticket_id = s.id)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`insert into source_tickets (key, description)
    select v.key, v.description from (values ('phone', 'Teléfono'), ('whatsapp', 'WhatsApp')) v(key, description)
    where not exists (select 1 from source_tickets s where s.key = v.key)`.execute(db);
}
