import { ticketFiltersSchema, type TicketFilterPresetInput } from '@sigaf/contract';
import type { AuthUser } from '../../http/auth.js';
import type { TicketFilterRepository } from './filter-repository.js';
import { fieldErrorsFromZod, invalid, notFound } from '../../http/errors.js';

/** Saved list filters, each user's own. */
export class TicketFilterService {
  constructor(private readonly repo: TicketFilterRepository) {}

  list(actor: AuthUser) {
    return this.repo.list(actor.id);
  }

  /** Saves (or replaces, by name) a preset; its filters must be valid list filters. */
  async save(input: TicketFilterPresetInput, actor: AuthUser) {
    const known = Object.keys(ticketFiltersSchema.shape);
    const filters = Object.fromEntries(
      Object.entries(input.filters).filter(
        ([k, v]) => known.includes(k) && v !== null && v !== undefined && v !== '',
      ),
    );
    const parsed = ticketFiltersSchema.safeParse(filters);
    if (!parsed.success) {
      const errors = fieldErrorsFromZod(parsed.error.issues);
      throw invalid(
        Object.fromEntries(Object.entries(errors).map(([k, v]) => [`filters.${k}`, v])),
      );
    }
    const { id, inserted } = await this.repo.save(actor.id, input.name, filters);
    return { row: (await this.repo.findById(id, actor.id))!, created: inserted };
  }

  async remove(id: number, actor: AuthUser) {
    if (!(await this.repo.delete(id, actor.id))) throw notFound();
  }
}
