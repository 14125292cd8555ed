import { type ListQuery } from '@sigaf/contract';
import type { AuthUser } from '../../http/auth.js';
import { conflict, notFound } from '../../http/errors.js';
import type { AuditRepository } from '../audit/repository.js';
import { requireOption, withoutUndefined } from '../shared/rules.js';
import type { CategoryRepository } from './repository.js';

export interface CategoryInput {
  description?: string;
  category_code?: string;
  id_category_moodle?: number;
  platform_id?: number;
  status?: number;
}

export class CategoryService {
  constructor(
    private readonly repo: CategoryRepository,
    private readonly audit: AuditRepository,
  ) {}

  list(q: ListQuery & { platformId?: number }) {
    return this.repo.list(q);
  }

  async get(id: number) {
    const row = await this.repo.findById(id);
    if (!row) throw notFound();
    return row;
  }

  async create(
    input: Required<Pick<CategoryInput, 'description' | 'category_code' | 'platform_id'>> &
      CategoryInput,
    actor: AuthUser,
    ip: string,
  ) {
    await requireOption('platform_id', input.platform_id, (id) => this.repo.platformExists(id));
    const id = await this.repo.insert({
      description: input.description,
      category_code: input.category_code,
      platform_id: input.platform_id,
      id_category_moodle: input.id_category_moodle ?? null,
      status: input.status ?? 1,
    });
    await this.audit.record({
      userId: actor.id,
      action: 'create',
      entity: 'categories',
      entityId: id,
      changes: input,
      ip,
    });
    return this.get(id);
  }

  async update(id: number, input: CategoryInput, actor: AuthUser, ip: string) {
    await this.get(id);
    await requireOption('platform_id', input.platform_id, (pid) => this.repo.platformExists(pid));
    const changes = withoutUndefined(input);
    if (Object.keys(changes).length) await this.repo.update(id, changes);
    await this.audit.record({
      userId: actor.id,
      action: 'update',
      entity: 'categories',
      entityId: id,
      changes,
      ip,
    });
    return this.get(id);
  }

  async remove(id: number, actor: AuthUser, ip: string) {
    const row = await this.get(id);
    const courses = await this.repo.courseCount(id);
    if (courses > 0)
      throw conflict(`No se puede eliminar porque tiene ${courses} curso(s) asociado(s).`);
    await this.repo.delete(id);
    await this.audit.record({
      userId: actor.id,
      action: 'delete',
      entity: 'categories',
      entityId: id,
      changes: { description: row.description },
      ip,
    });
  }
}
