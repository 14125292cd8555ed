import {
  isAdminLike,
  MAIL_MSG,
  type MailTemplateInput,
  type MailTemplateUpdateInput,
} from '@sigaf/contract';
import type { AuthUser } from '../../http/auth.js';
import { forbidden, invalid, notFound } from '../../http/errors.js';
import { htmlToText, sanitizeBody } from './content.js';
import type { MailRepository } from './repository.js';

/** Mail templates: shared per course, changed or deleted only by their creator, an administrator or a developer. */
export class MailTemplateService {
  constructor(private readonly repo: MailRepository) {}

  templates(courseId?: number) {
    return this.repo.templates(courseId);
  }

  async template(id: number) {
    const row = await this.repo.template(id);
    if (!row) throw notFound();
    return row;
  }

  private async saveTemplate<T>(save: () => Promise<T>): Promise<T> {
    try {
      return await save();
    } catch (err) {
      const code = (err as { code?: string }).code;
      if (code === '23505') throw invalid({ name: [MAIL_MSG.templateExists] });
      if (code === '23503') throw invalid({ course_id: [MAIL_MSG.courseRequired] });
      throw err;
    }
  }

  createTemplate(input: MailTemplateInput, actor: AuthUser) {
    return this.saveTemplate(() =>
      this.repo.insertTemplate({
        course_id: input.course_id,
        name: input.name,
        subject: input.subject,
        html: this.cleanTemplate(input.html),
        created_by: actor.id,
      }),
    );
  }

  /** A template is changed or deleted by whoever created it, or an administrator or developer. */
  private async ownTemplate(id: number, actor: AuthUser) {
    const row = await this.template(id);
    if (row.created_by !== actor.id && !isAdminLike(actor.role))
      throw forbidden(MAIL_MSG.templateNotYours);
    return row;
  }

  async updateTemplate(id: number, input: MailTemplateUpdateInput, actor: AuthUser) {
    await this.ownTemplate(id, actor);
    const values = {
      ...input,
      ...(input.html !== undefined ? { html: this.cleanTemplate(input.html) } : {}),
    };
    return (await this.saveTemplate(() => this.repo.updateTemplate(id, values)))!;
  }

  async deleteTemplate(id: number, actor: AuthUser) {
    await this.ownTemplate(id, actor);
    if (!(await this.repo.deleteTemplate(id))) throw notFound();
  }

  private cleanTemplate(html: string) {
    const clean = sanitizeBody(html);
    if (!htmlToText(clean)) throw invalid({ html: [MAIL_MSG.bodyRequired] });
    return clean;
  }
}
