import type { Updateable } from 'kysely';
import {
  canDeleteTicket,
  chileDateTime,
  chileParts,
  FORM_MSG,
  MSG,
  TICKET_MSG,
  TICKET_WORKERS,
  type FieldErrors,
  type RoleKey,
  type TicketBulkInput,
  type TicketCreateInput,
  type TicketCreateManyInput,
  type TicketFilters,
  type TicketStatusFilter,
  type TicketUpdateInput,
} from '@sigaf/contract';
import type { AuditRepository } from '../audit/repository.js';
import type { AuthUser } from '../../http/auth.js';
import type { Database } from '../../db/database.js';
import type { EnrolmentRef, Lookups, SortDirection, TicketQuery } from './sql.js';
import type { TicketLockRepository, TicketLockRow } from './lock-repository.js';
import type { TicketRepository, TicketRow } from './repository.js';
import type { TicketTable } from '../../db/schema.js';
import { AppError, conflict, forbidden, invalid, notFound } from '../../http/errors.js';
import { mayTouchTicket, type TicketAccess } from './access.js';

/** Most rows one export writes. */
export const EXPORT_LIMIT = 20_000;

/** The default scope and order of each ticket list (docs/development/domain.md#ticket-lists). */
export const TICKET_LISTS = {
  /** GET /tickets: the open queue, oldest first. */
  queue: { status: 'open', sort: 'createdAt', order: 'asc' },
  /** A course's open tickets, newest first. */
  course: { status: 'open', sort: 'createdAt', order: 'desc' },
  /** Searches (code, operator, dates) and an enrolment's history: every status, newest first. */
  search: { status: 'all', sort: 'createdAt', order: 'desc' },
} as const satisfies Record<
  string,
  { status: TicketStatusFilter; sort: string; order: SortDirection }
>;
export type TicketListKind = keyof typeof TICKET_LISTS;

/** `{category code}-{first 3 letters of the course, upper case, no accents}`. */
export function codePrefix(categoryCode: string, course: string): string {
  const plain = (s: string) =>
    s
      .normalize('NFD')
      .replace(/[\u0300-\u036f]/g, '')
      .toUpperCase();
  const category = plain(categoryCode).replace(/[^A-Z0-9]/g, '') || 'TKT';
  const letters = plain(course)
    .replace(/[^A-Z]/g, '')
    .slice(0, 3)
    .padEnd(3, 'X');
  return `${category}-${letters}`;
}

export const formatCode = (prefix: string, n: number) => `${prefix}-${String(n).padStart(4, '0')}`;

export type LockLike = Pick<TicketLockRow, 'user_id' | 'user_name' | 'created_at'>;

export function lockedError(lock: LockLike) {
  return conflict(TICKET_MSG.locked(lock.user_name, chileParts(lock.created_at).time));
}

/** Operators see only the tickets assigned to them; administrators and developers see all. */
export const assignedScope = (actor: AuthUser) =>
  actor.role === 'operator' ? actor.id : undefined;

export type Change = [unknown, unknown];

/** The conflict of a ticket someone else holds an edit lock on (as read), or null. */
function heldBy(row: TicketRow, actor: AuthUser): AppError | null {
  return row.lock_user_id && row.lock_user_id !== actor.id
    ? lockedError({
        user_id: row.lock_user_id,
        user_name: row.lock_user_name ?? '',
        created_at: row.lock_created_at!,
      })
    : null;
}

/** Applies one action to each ticket in turn; a refused one (any domain error) is reported with its reason. */
export async function eachTicket(ids: number[], action: (id: number) => Promise<unknown>) {
  const done: number[] = [];
  const refused: Array<{ id: number; reason: string }> = [];
  for (const id of ids) {
    try {
      await action(id);
      done.push(id);
    } catch (e) {
      if (!(e instanceof AppError)) throw e;
      refused.push({ id, reason: e.message });
    }
  }
  return { done, refused };
}

/** The catalogue fields of a ticket: body field, history label, lookup, and the row's current value. */
export const OPTION_FIELDS = [
  ['status_ticket_id', 'statusTicket', 'status', 'status_description'],
  ['type_ticket_id', 'typeTicket', 'type', 'type_description'],
  ['priority_ticket_id', 'priorityTicket', 'priority', 'priority_description'],
  ['source_ticket_id', 'sourceTicket', 'source', 'source_description'],
  ['motive_ticket_id', 'motiveTicket', 'motive', 'motive_description'],
] as const;

export type TicketRefs = Partial<
  Pick<
    TicketCreateInput,
    | 'status_ticket_id'
    | 'type_ticket_id'
    | 'priority_ticket_id'
    | 'source_ticket_id'
    | 'motive_ticket_id'
    | 'user_assigned_id'
  >
> & {
  status_detail_ticket_id?: number;
};

/** Tickets: codes, closing, versions, delete rules, history (docs/development/domain.md#tickets). */
export class TicketService {
  constructor(
    private readonly db: Database,
    private readonly repo: TicketRepository,
    private readonly locks: TicketLockRepository,
    private readonly audit: AuditRepository,
    readonly access: TicketAccess,
  ) {}

  /** Told when saved tickets changed operator, by any route (the workload table's kept at-risk column: services.ts). */
  onReassigned: () => void = () => {};

  list(kind: TicketListKind, q: TicketQuery, actor: AuthUser, opts: { scoped?: boolean } = {}) {
    const d = TICKET_LISTS[kind];
    // Asking for one status id means "whatever its state".
    const status = q.status ?? (q.status_ticket_id ? 'all' : d.status);
    return this.repo.list(
      { ...q, status, assignedTo: opts.scoped === false ? undefined : assignedScope(actor) },
      d,
    );
  }

  async get(id: number) {
    const row = await this.repo.findById(id);
    if (!row) throw notFound(TICKET_MSG.notFound);
    return row;
  }

  /** One ticket, for a caller the access rule lets touch it (404 missing, 403 not theirs). */
  async getFor(id: number, actor: AuthUser) {
    const row = await this.get(id);
    this.access.check(actor, row);
    return row;
  }

  /** Checks every referenced value in one query; a 422 names each field that points nowhere. */
  async resolve(input: TicketRefs, errors: FieldErrors = {}): Promise<Lookups> {
    return this.checkRefs(input, await this.lookupRefs(input), errors);
  }

  lookupRefs(input: TicketRefs) {
    return this.repo.lookups({
      status: input.status_ticket_id,
      type: input.type_ticket_id,
      priority: input.priority_ticket_id,
      source: input.source_ticket_id,
      motive: input.motive_ticket_id,
      detailStatus: input.status_detail_ticket_id,
      assigned: input.user_assigned_id,
    });
  }

  /** A 422 naming each field (of these and those already in `errors`) that points nowhere. */
  checkRefs(input: TicketRefs, refs: Lookups, errors: FieldErrors): Lookups {
    for (const [field, , ref] of OPTION_FIELDS)
      if (input[field] && !refs[ref]) errors[field] = [FORM_MSG.option];
    if (input.status_detail_ticket_id && !refs.detailStatus)
      errors.status_detail_ticket_id = [FORM_MSG.option];
    if (
      input.user_assigned_id &&
      (!refs.assigned || !TICKET_WORKERS.includes(refs.assigned.role as RoleKey))
    )
      errors.user_assigned_id = [TICKET_MSG.operatorInvalid];
    if (Object.keys(errors).length) throw invalid(errors);
    return refs;
  }

  /** The enrolments of a create, in the order given; a 422 when one does not exist. */
  private async enrolments(ids: number[]): Promise<{ found: EnrolmentRef[]; errors: FieldErrors }> {
    const rows = await this.repo.enrolments(ids);
    const byId = new Map(rows.map((r) => [r.id, r]));
    const missing = ids.filter((id) => !byId.has(id));
    const errors: FieldErrors = missing.length
      ? {
          course_registered_user_id: [
            ids.length === 1
              ? FORM_MSG.option
              : `No existen las matrículas: ${missing.join(', ')}.`,
          ],
        }
      : {};
    return { found: ids.flatMap((id) => byId.get(id) ?? []), errors };
  }

  async create(input: TicketCreateInput, actor: AuthUser) {
    const [id] = await this.createMany(
      { ...input, course_registered_user_id: [input.course_registered_user_id] },
      actor,
    );
    return this.get(id!);
  }

  /**
   * One ticket per enrolment, all or none (one statement). Codes come from the per-prefix
   * sequence, so they are consecutive, unique and gap-free under concurrency. Returns the new ids
   * in input order.
   */
  async createMany(input: TicketCreateManyInput, actor: AuthUser): Promise<number[]> {
    // The enrolments and the referenced values are read at once; their field errors answered together.
    const [{ found, errors }, looked] = await Promise.all([
      this.enrolments(input.course_registered_user_id),
      this.lookupRefs(input),
    ]);
    const refs = this.checkRefs(input, looked, errors);
    const changes: Record<string, Change> = {
      statusTicket: [null, refs.status!.description],
      ...(refs.assigned ? { userAssigned: [null, refs.assigned.name] as Change } : {}),
    };
    const request = {
      enrolments: found.map((e) => ({
        id: e.id,
        courseId: e.course_id,
        prefix: codePrefix(e.category_code, e.course_description),
      })),
      fields: {
        type_ticket_id: input.type_ticket_id,
        status_ticket_id: input.status_ticket_id,
        priority_ticket_id: input.priority_ticket_id,
        source_ticket_id: input.source_ticket_id,
        motive_ticket_id: input.motive_ticket_id,
        user_create_id: actor.id,
        user_assigned_id: input.user_assigned_id ?? null,
      },
      closed: refs.status!.key !== 'open',
      history: { userId: actor.id, changes },
    };
    // A prefix's first ticket: its code sequence is created (after the highest code in use), then again.
    let created = await this.repo.createWithCodes(request);
    if (!created) {
      await this.repo.ensureCodeSequences([...new Set(request.enrolments.map((e) => e.prefix))]);
      created = await this.repo.createWithCodes(request);
    }
    if (!created) throw new Error('ticket code sequences missing after creating them');
    return created.map((t) => t.id);
  }

  findMany(ids: number[]) {
    return this.repo.findMany(ids);
  }

  /** The contact attempts of these tickets, in one query (by ticket id). */
  attemptsOf(ticketIds: number[]) {
    return this.repo.attemptsOf(ticketIds);
  }

  /**
   * Saves a ticket: refused while someone else holds the edit lock or when `version` is stale
   * (also when another save lands between the read and the write). Closing stamps closing_date
   * once; reopening clears it. Bumps the version, frees the caller's lock, writes the history.
   */
  async update(id: number, input: TicketUpdateInput, actor: AuthUser) {
    const row = await this.getFor(id, actor);
    if (input.ticket_id !== undefined && input.ticket_id !== id)
      throw invalid({ ticket_id: [TICKET_MSG.ticketMismatch] });
    const held = heldBy(row, actor);
    if (held) throw held;
    if (input.version !== undefined && input.version !== row.version)
      throw conflict(TICKET_MSG.staleVersion);
    const refs = await this.resolve(input);
    const { refused } = await this.updateRows([row], input, refs, actor);
    if (refused.length) throw refused[0]!.error;
    const wasOpen = row.status_key === 'open';
    const isOpen = refs.status ? refs.status.key === 'open' : wasOpen;
    // What the save did, for its message: closing and reopening are named as such.
    return wasOpen === isOpen ? 'updated' : isOpen ? 'reopened' : 'closed';
  }

  /**
   * One change applied to these tickets (as read) at once: one UPDATE per distinct change, one
   * history insert, their edit locks released, in one transaction. A ticket another user holds
   * locked, or changed since it was read, is refused with its reason; the others are saved.
   */
  private async updateRows(
    rows: TicketRow[],
    input: TicketUpdateInput,
    refs: Lookups,
    actor: AuthUser,
  ) {
    const refused: Array<{ id: number; reason: string; error: AppError }> = [];
    const refuse = (id: number, error: AppError) =>
      refused.push({ id, reason: error.message, error });
    // Per ticket: the values that change, their history, and what happens to the closing date.
    const groups = new Map<
      string,
      {
        values: Updateable<TicketTable>;
        closing: 'stamp' | 'clear' | 'keep';
        rows: Array<{ row: TicketRow; changes: Record<string, Change> }>;
      }
    >();
    for (const row of rows) {
      const held = heldBy(row, actor);
      if (held) {
        refuse(row.id, held);
        continue;
      }
      const values: Updateable<TicketTable> = {};
      const changes: Record<string, Change> = {};
      for (const [field, label, ref, current] of OPTION_FIELDS) {
        const next = input[field];
        if (next === undefined || next === row[field]) continue;
        values[field] = next;
        changes[label] = [row[current], refs[ref]!.description];
      }
      if (input.user_assigned_id !== undefined && input.user_assigned_id !== row.user_assigned_id) {
        values.user_assigned_id = input.user_assigned_id;
        changes.userAssigned = [row.assigned_name ?? null, refs.assigned?.name ?? null];
      }
      const open =
        values.status_ticket_id !== undefined
          ? refs.status!.key === 'open'
          : row.status_key === 'open';
      const closing =
        !open && !row.closing_date ? 'stamp' : open && row.closing_date ? 'clear' : 'keep';
      const key = JSON.stringify([values, closing]);
      const group = groups.get(key) ?? { values, closing, rows: [] };
      group.rows.push({ row, changes });
      groups.set(key, group);
    }
    const done: number[] = [];
    let reassigned = false;
    await this.db.transaction().execute(async (trx) => {
      const history: Array<{
        ticketId: number;
        userId: number;
        action: string;
        changes: Record<string, Change>;
      }> = [];
      for (const { values, closing, rows: planned } of groups.values()) {
        const saved = new Map(
          (
            await this.repo.updateGuarded(
              planned.map((p) => p.row),
              actor.id,
              values,
              closing,
              trx,
            )
          ).map((s) => [s.id, s]),
        );
        for (const { row, changes } of planned) {
          const after = saved.get(row.id);
          if (!after) {
            const lock = await this.locks.active(row.id, trx);
            refuse(
              row.id,
              lock && lock.user_id !== actor.id
                ? lockedError(lock)
                : conflict(TICKET_MSG.staleVersion),
            );
            continue;
          }
          if (closing !== 'keep')
            changes.closingDate = [
              chileDateTime(row.closing_date) || null,
              chileDateTime(after.closing_date) || null,
            ];
          if (Object.keys(changes).length)
            history.push({ ticketId: row.id, userId: actor.id, action: 'update', changes });
          reassigned ||= 'userAssigned' in changes;
          done.push(row.id);
        }
      }
      await this.locks.releaseAfterUpdate(done, actor.id, trx);
      await this.repo.addHistory(history, trx);
    });
    if (reassigned) this.onReassigned();
    return { done, refused };
  }

  /** Why this caller may not delete this ticket, or null. */
  private refusal(row: TicketRow, actor: AuthUser): AppError | null {
    if (!mayTouchTicket(actor, row)) return forbidden(TICKET_MSG.notYours);
    const attempts = Number(row.details_count);
    if (!canDeleteTicket({ attempts: 0, creatorId: row.user_create_id }, actor))
      return forbidden(TICKET_MSG.deleteForbidden);
    if (!canDeleteTicket({ attempts, creatorId: row.user_create_id }, actor))
      return conflict(TICKET_MSG.hasDetails);
    return heldBy(row, actor);
  }

  /** Deletes a ticket without contact attempts, for its creator or an administrator/developer. */
  async remove(id: number, actor: AuthUser, ip: string) {
    const row = await this.get(id);
    const refused = this.refusal(row, actor);
    if (refused) throw refused;
    if (!(await this.repo.deleteGuarded(id, actor.id, this.db))) {
      // An attempt or a lock arrived in between.
      throw this.refusal(await this.get(id), actor) ?? conflict(MSG.conflict);
    }
    await this.audit.record({
      userId: actor.id,
      action: 'delete',
      entity: 'tickets',
      entityId: id,
      changes: {
        ticketCode: row.ticket_code,
        course: row.course_id,
        enrolment: row.course_registered_user_id,
      },
      ip,
    });
  }

  /** Deletes each ticket the rules allow; reports the others with the reason. */
  async removeMany(ids: number[], actor: AuthUser, ip: string) {
    const { done, refused } = await eachTicket(ids, (id) => this.remove(id, actor, ip));
    return { deleted: done, refused };
  }

  /**
   * Deletes every one of these tickets or none, in one transaction (the original client's
   * Administración ticket keeps every selected row unless told success). When one may not be
   * deleted (contact attempts, someone else's edit lock, gone), nothing is: a 409 whose `_data`
   * lists each refused ticket with its reason.
   */
  async removeAll(ids: number[], actor: AuthUser, ip: string): Promise<number[]> {
    const wanted = [...new Set(ids)];
    const check = async () => {
      const rows = await this.repo.findMany(wanted);
      const byId = new Map(rows.map((r) => [r.id, r]));
      const refused: Array<{ id: number; reason: string; sentence: string }> = [];
      for (const id of wanted) {
        const row = byId.get(id);
        const error = row ? this.refusal(row, actor) : notFound(TICKET_MSG.notFound);
        if (!error) continue;
        const sentence = !row
          ? TICKET_MSG.notFoundOf(id)
          : error.message === TICKET_MSG.hasDetails
            ? TICKET_MSG.hasDetailsOf(row.ticket_code)
            : `${row.ticket_code}: ${error.message}`;
        refused.push({ id, reason: error.message, sentence });
      }
      if (!refused.length) return rows;
      throw new AppError(409, TICKET_MSG.deletedNone(refused.map((r) => r.sentence)), {
        deleted: [],
        refused: refused.map(({ id, reason }) => ({ id, reason })),
      });
    };
    const rows = await check();
    const raced = new Error('a ticket changed while it was deleted');
    try {
      await this.db.transaction().execute(async (trx) => {
        for (const row of rows) {
          if (!(await this.repo.deleteGuarded(row.id, actor.id, trx))) throw raced;
          await this.audit.record(
            {
              userId: actor.id,
              action: 'delete',
              entity: 'tickets',
              entityId: row.id,
              changes: {
                ticketCode: row.ticket_code,
                course: row.course_id,
                enrolment: row.course_registered_user_id,
              },
              ip,
            },
            trx,
          );
        }
      });
    } catch (e) {
      // An attempt or a lock arrived in between: nothing was deleted; say which ticket and why.
      if (e !== raced) throw e;
      await check();
      throw conflict(MSG.conflict);
    }
    return rows.map((r) => r.id);
  }

  /** Close, assign or change the status of many tickets, each with the rules of a single save. */
  async bulk(input: TicketBulkInput, actor: AuthUser) {
    let patch: TicketUpdateInput;
    if (input.action === 'assign') patch = { user_assigned_id: input.user_assigned_id };
    else {
      const statusId =
        input.status_ticket_id ??
        (input.action === 'close' ? await this.repo.statusIdByKey('closed') : undefined);
      if (!statusId) throw invalid({ status_ticket_id: [TICKET_MSG.noClosedStatus] });
      patch = { status_ticket_id: statusId };
    }
    const refs = await this.resolve(patch);
    if (input.action === 'close' && refs.status?.key === 'open')
      throw invalid({ status_ticket_id: [FORM_MSG.option] });
    // Read at once; a ticket missing or not the caller's to touch is refused, the rest saved together.
    const ids = [...new Set(input.ids)];
    const rows = new Map((await this.repo.inOrder(ids)).map((r) => [r.id, r]));
    const refused: Array<{ id: number; reason: string }> = [];
    const mine: TicketRow[] = [];
    for (const id of ids) {
      const row = rows.get(id);
      if (!row) refused.push({ id, reason: TICKET_MSG.notFound });
      else if (!mayTouchTicket(actor, row)) refused.push({ id, reason: TICKET_MSG.notYours });
      else mine.push(row);
    }
    const result = await this.updateRows(mine, patch, refs, actor);
    const order = new Map(ids.map((id, i) => [id, i]));
    return {
      updated: result.done,
      refused: [...refused, ...result.refused.map(({ id, reason }) => ({ id, reason }))].sort(
        (a, b) => order.get(a.id)! - order.get(b.id)!,
      ),
    };
  }

  async history(id: number, actor: AuthUser) {
    await this.getFor(id, actor);
    return this.repo.history(id);
  }

  /** The tickets of an export: the list's filters and scope, every status unless asked. */
  exportRows(q: TicketFilters, actor: AuthUser) {
    return this.repo.all(
      {
        ...q,
        status: q.status ?? (q.status_ticket_id ? undefined : 'all'),
        assignedTo: assignedScope(actor),
      },
      EXPORT_LIMIT,
    );
  }
}
