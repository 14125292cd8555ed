import { isAdminLike, MSG, TICKET_MSG, type ListQuery } from '@sigaf/contract';
import type { AuthUser } from '../../http/auth.js';
import type { TicketAccess } from './access.js';
import type { TicketLockRepository } from './lock-repository.js';
import type { TicketRepository } from './repository.js';
import { conflict, forbidden, notFound } from '../../http/errors.js';
import { lockedError } from './service.js';

/** Edit locks: taken atomically, expiring after LOCK_TTL_MINUTES, released by save or by hand. */
export class TicketLockService {
  constructor(
    private readonly repo: TicketLockRepository,
    private readonly tickets: TicketRepository,
    private readonly access: TicketAccess,
    private readonly ttlMinutes: number,
  ) {}

  list(q: ListQuery) {
    return this.repo.listActive(q);
  }

  async get(id: number) {
    const row = await this.repo.findById(id);
    if (!row) throw notFound();
    return row;
  }

  /** One lock, of a ticket the caller may touch. */
  async getFor(id: number, actor: AuthUser) {
    const row = await this.get(id);
    await this.access.assert(actor, [row.ticket_id]);
    return row;
  }

  /** The active lock of a ticket, or undefined when it is free (a missing ticket is a 404). */
  async activeFor(ticketId: number, actor: AuthUser) {
    await this.access.assert(actor, [ticketId]);
    return this.repo.active(ticketId);
  }

  /** Takes the lock (or renews the caller's own); a lock someone else holds is a 409. */
  async acquire(ticketId: number, actor: AuthUser) {
    await this.access.assert(actor, [ticketId]);
    const before = await this.repo.active(ticketId);
    const id = await this.repo.acquire(ticketId, actor.id, this.ttlMinutes);
    if (id === undefined) {
      const holder = await this.repo.active(ticketId);
      throw holder ? lockedError(holder) : conflict(MSG.conflict);
    }
    return { row: await this.get(id), renewed: before?.user_id === actor.id };
  }

  /** PUT on a lock renews it for its holder. */
  async renew(id: number, actor: AuthUser) {
    const lock = await this.getFor(id, actor);
    if (lock.user_id !== actor.id && !lock.expired) throw lockedError(lock);
    return this.acquire(lock.ticket_id, actor);
  }

  /** Unlock: the holder, or an administrator/developer (then noted in the ticket's history). */
  async release(id: number, actor: AuthUser) {
    const lock = await this.getFor(id, actor);
    if (lock.user_id !== actor.id && !isAdminLike(actor.role))
      throw forbidden(TICKET_MSG.unlockForbidden);
    await this.releaseMany([id], actor);
  }

  async releaseMany(ids: number[], actor: AuthUser) {
    const locks = await this.repo.findMany(ids);
    const deleted = await this.repo.deleteMany(locks.map((l) => l.id));
    const gone = new Set(deleted.map((d) => d.id));
    await this.tickets.addHistory(
      locks
        .filter((l) => gone.has(l.id) && l.user_id !== actor.id)
        .map((l) => ({
          ticketId: l.ticket_id,
          userId: actor.id,
          action: 'unlock',
          changes: { lockedBy: [l.user_name, null] },
        })),
    );
    return { deleted: [...gone], notFound: ids.filter((id) => !gone.has(id)) };
  }
}
