import type { Database } from '../../db/database.js';

export interface AuditEntry {
  userId: number | null;
  action: string;
  entity: string;
  entityId?: string | number | null;
  changes?: unknown;
  ip?: string | null;
}

/** The audit trail: who changed what, when. */
export class AuditRepository {
  constructor(private readonly db: Database) {}

  async record(e: AuditEntry, db: Database = this.db) {
    await db
      .insertInto('audit_log')
      .values({
        user_id: e.userId,
        action: e.action,
        entity: e.entity,
        entity_id: e.entityId === undefined || e.entityId === null ? null : String(e.entityId),
        changes: e.changes === undefined ? null : JSON.stringify(e.changes),
        ip: e.ip ?? null,
      })
      .execute();
  }

  async list(entity: string, entityId?: string) {
    let q = this.db.selectFrom('audit_log').selectAll().where('entity', '=', entity);
    if (entityId !== undefined) q = q.where('entity_id', '=', entityId);
    return q.orderBy('id', 'desc').limit(500).execute();
  }
}
