import { legacy, type ListQuery, type ResourceDecl } from '@sigaf/contract';
import { conflict, notFound } from '../../http/errors.js';
import type { AuthUser } from '../../http/auth.js';
import type { AuditRepository } from '../audit/repository.js';
import { CATALOGUE_TABLES } from './declarations.js';
import type { CatalogueRepository, CatalogueRow } from './repository.js';

export const CATALOGUE_MSG = {
  duplicate: (d: string) => `Ya existe un registro con el nombre «${d}».`,
  system: 'Este valor es utilizado por el sistema y no se puede eliminar.',
  inUse: (parts: string) => `No se puede eliminar porque está en uso por ${parts}.`,
} as const;

/** The behaviour every id + description catalogue shares: unique names, no orphaning deletes, audit. */
export class CatalogueService {
  constructor(
    private readonly repo: CatalogueRepository,
    private readonly audit: AuditRepository,
  ) {}

  private meta(decl: ResourceDecl) {
    return CATALOGUE_TABLES[decl.path]!;
  }

  private counts(decl: ResourceDecl) {
    return { ticketColumn: decl.ticketColumn, children: this.meta(decl).children };
  }

  async list(decl: ResourceDecl, q: ListQuery) {
    const page = await this.repo.list(this.meta(decl).table, q, this.counts(decl));
    const rows = await this.withRelated(decl, page.rows);
    // The whole list of sections, as the original client reads it for its progress divisor.
    if (decl.path === 'sections' && !q.page && !q.search)
      rows.push(...(await this.unfiledSection(rows)));
    return { ...page, rows };
  }

  /**
   * The original client's "Progreso" divides by the activities of every section outside
   * PROGRESS_LEFT_OUT (by name, across courses). While none is filed in such a section (a new
   * installation, the demo, a course just synchronised: all in Formativa), that is 0 and every card
   * reads "NaN%": the whole list then ends with UNFILED_SECTION listing the activities still
   * outside one, so the divisor is at least every activity a card's results can name.
   */
  private async unfiledSection(sections: CatalogueRow[]): Promise<CatalogueRow[]> {
    if (
      sections.some(
        (s) => !legacy.PROGRESS_LEFT_OUT.includes(s.description) && s.activities?.length,
      )
    )
      return [];
    const activities = await this.repo.liveActivities();
    if (!activities.length) return [];
    const at = new Date(0);
    return [
      { ...legacy.UNFILED_SECTION, created_at: at, updated_at: at, children_count: 0, activities },
    ];
  }

  /**
   * What a value's relationship shows besides its count: a status's tickets grouped by assigned
   * operator; a section's activities (the original client counts them for student progress).
   */
  private async withRelated(decl: ResourceDecl, rows: CatalogueRow[]): Promise<CatalogueRow[]> {
    const ids = rows.map((r) => r.id);
    if (decl.path === 'status-tickets') {
      const byOperator = await this.repo.ticketsByOperator(ids);
      return rows.map((r) => ({
        ...r,
        operators: byOperator
          .filter((o) => o.status_id === r.id)
          .map((o) => ({ operator: o.operator, count: o.count })),
      }));
    }
    if (decl.path === 'sections') {
      const activities = await this.repo.sectionActivities(ids);
      return rows.map((r) => ({
        ...r,
        activities: activities.filter((a) => a.section_id === r.id),
      }));
    }
    return rows;
  }

  async get(decl: ResourceDecl, id: number) {
    const row = await this.repo.findById(this.meta(decl).table, id, this.counts(decl));
    if (!row) throw notFound();
    return (await this.withRelated(decl, [row]))[0]!;
  }

  async create(decl: ResourceDecl, description: string, actor: AuthUser, ip: string) {
    const { table } = this.meta(decl);
    if (await this.repo.descriptionTaken(table, description))
      throw conflict(CATALOGUE_MSG.duplicate(description));
    const id = await this.repo.insert(table, description);
    await this.audit.record({
      userId: actor.id,
      action: 'create',
      entity: table,
      entityId: id,
      changes: { description },
      ip,
    });
    return this.get(decl, id);
  }

  async update(
    decl: ResourceDecl,
    id: number,
    description: string | undefined,
    actor: AuthUser,
    ip: string,
  ) {
    const { table } = this.meta(decl);
    const current = await this.get(decl, id);
    if (description !== undefined && description !== current.description) {
      if (await this.repo.descriptionTaken(table, description, id))
        throw conflict(CATALOGUE_MSG.duplicate(description));
      await this.repo.update(table, id, description);
      await this.audit.record({
        userId: actor.id,
        action: 'update',
        entity: table,
        entityId: id,
        changes: { description: [current.description, description] },
        ip,
      });
    }
    return this.get(decl, id);
  }

  async remove(decl: ResourceDecl, id: number, actor: AuthUser, ip: string) {
    const m = this.meta(decl);
    const current = await this.get(decl, id);
    if (current.key) throw conflict(CATALOGUE_MSG.system);
    const usage = (await this.repo.usage(m.usedBy, id)).filter((u) => u.count > 0);
    if (usage.length) {
      throw conflict(CATALOGUE_MSG.inUse(usage.map((u) => `${u.count} ${u.noun}`).join(' y ')), {
        usage: usage.map((u) => ({ table: u.table, count: u.count })),
      });
    }
    await this.repo.delete(m.table, id);
    await this.audit.record({
      userId: actor.id,
      action: 'delete',
      entity: m.table,
      entityId: id,
      changes: { description: current.description },
      ip,
    });
  }
}
