import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { isAdminLike, MAIL_MSG } from '@sigaf/contract';
import type { Config } from '../../config.js';
import type { AuthUser } from '../../http/auth.js';
import { AppError, conflict, invalid, notFound } from '../../http/errors.js';
import type { JobQueue } from '../../jobs/queue.js';
import type { JobHandlers } from '../../jobs/worker.js';
import { checkAttachment, safeFileName } from './content.js';
import type { AttachmentRow, MailRepository } from './repository.js';

/** The periodic removal of attachment files (cleanupFiles). */
export const MAIL_CLEANUP_JOB = 'mail.cleanup';
/** An upload no message has used is removed after this long (the composer has long been closed). */
export const UNUSED_UPLOAD_HOURS = 24;
/** The files of messages that are all sent are kept this long after the last one was sent. */
export const SENT_FILE_RETENTION_DAYS = 30;
const HOUR_MS = 3_600_000;

/** Mail attachments: uploads checked by type and content, who may use them, and their removal when no longer needed. */
export class MailFileService {
  private readonly uploadsDir: string;

  constructor(
    private readonly repo: MailRepository,
    private readonly queue: JobQueue,
    private readonly config: Pick<Config, 'DATA_DIR' | 'MAIL_MAX_ATTACHMENT_MB'>,
  ) {
    this.uploadsDir = path.join(config.DATA_DIR, 'uploads');
  }

  /** Registers the clean-up job with the worker's handlers. */
  registerJobs(handlers: JobHandlers): void {
    handlers.register<{ slot?: number }>(
      MAIL_CLEANUP_JOB,
      async (job) => {
        const removed = await this.cleanupFiles();
        // Files still kept will fall due later: look again in the next hour.
        if (await this.repo.hasKeptAttachments())
          await this.scheduleCleanup(0, (job.payload.slot ?? 0) + 1);
        return removed;
      },
      { timeoutMs: 10 * 60_000 },
    );
  }

  get maxAttachmentBytes(): number {
    return Math.round(this.config.MAIL_MAX_ATTACHMENT_MB * 1024 * 1024);
  }

  /** Stores an uploaded file under a random name after checking its type by extension and content. */
  async upload(
    file: { buffer: Buffer; filename: string },
    actor: AuthUser,
  ): Promise<AttachmentRow> {
    const originalName = safeFileName(file.filename);
    const checked = checkAttachment(originalName, file.buffer);
    if ('error' in checked)
      throw invalid({
        file: [checked.error === 'type' ? MAIL_MSG.fileType : MAIL_MSG.fileContent],
      });
    const storedName = `${randomBytes(16).toString('hex')}.${checked.ext}`;
    await fs.promises.mkdir(this.uploadsDir, { recursive: true, mode: 0o700 });
    const target = this.filePath(storedName);
    await fs.promises.writeFile(target, file.buffer, { flag: 'wx', mode: 0o600 });
    try {
      return await this.repo.insertAttachment({
        stored_name: storedName,
        original_name: originalName,
        size: file.buffer.length,
        mime: checked.mime,
        sha256: createHash('sha256').update(file.buffer).digest('hex'),
        uploaded_by: actor.id,
      });
    } catch (err) {
      await fs.promises.rm(target, { force: true });
      throw err;
    }
  }

  /** Where a stored attachment lives; names that are not ours never reach the file system. */
  filePath(storedName: string): string {
    // Stored names are ours (hex + extension); anything else never reaches the file system.
    if (!/^[a-f0-9]{32}\.[a-z]{2,5}$/.test(storedName)) throw notFound(MAIL_MSG.fileNotFound);
    return path.join(this.uploadsDir, storedName);
  }

  private mayUse(row: AttachmentRow, actor: AuthUser) {
    return row.uploaded_by === actor.id || isAdminLike(actor.role);
  }

  /** An upload the caller may use; someone else's is the same 404 as one that does not exist. */
  private async usable(name: string, actor: AuthUser): Promise<AttachmentRow> {
    const row = await this.repo.attachmentByName(name);
    if (!row || !this.mayUse(row, actor)) throw notFound(MAIL_MSG.fileNotFound);
    return row;
  }

  /** The stored file of an attachment (its uploader, an administrator or a developer). */
  async attachmentFile(name: string, actor: AuthUser) {
    const row = await this.usable(name, actor);
    if (row.purged_at) throw new AppError(410, MAIL_MSG.fileRemoved);
    const file = this.filePath(row.stored_name);
    if (!fs.existsSync(file)) throw notFound(MAIL_MSG.fileNotFound);
    return { row, path: file };
  }

  /**
   * Queues the clean-up job for the next full hour at least `delayMs` away; one job per hour at
   * most (the hour is its unique key), however many uploads ask for it.
   */
  async scheduleCleanup(delayMs: number, minSlot = 0) {
    const slot = Math.max(Math.ceil((Date.now() + delayMs) / HOUR_MS), minSlot);
    return this.queue.enqueue(
      MAIL_CLEANUP_JOB,
      { slot },
      { uniqueKey: `${MAIL_CLEANUP_JOB}:${slot}`, runAt: new Date(slot * HOUR_MS), maxAttempts: 3 },
    );
  }

  /**
   * Removes attachment files that are no longer needed (docs/operations/mail.md, "Attachment retention"):
   * - an upload no message uses, older than UNUSED_UPLOAD_HOURS: row and file;
   * - a file whose messages are all sent, the last one more than SENT_FILE_RETENTION_DAYS ago:
   *   the file; the row stays, marked purged, so that the outbox still names it (a file of a
   *   queued, sending or failed message is kept: it may still be sent or retried);
   * - a file in the uploads folder with no row (a crash between writing and recording it),
   *   older than UNUSED_UPLOAD_HOURS.
   */
  async cleanupFiles(
    now = new Date(),
  ): Promise<{ unused: number; expired: number; strays: number }> {
    const unusedBefore = new Date(now.getTime() - UNUSED_UPLOAD_HOURS * HOUR_MS);
    const sentBefore = new Date(now.getTime() - SENT_FILE_RETENTION_DAYS * 24 * HOUR_MS);
    const unused = await this.repo.deleteUnusedAttachments(unusedBefore);
    const expired = await this.repo.purgeSentAttachments(sentBefore);
    for (const name of [...unused, ...expired])
      await fs.promises.rm(this.filePath(name), { force: true });
    let strays = 0;
    const entries = await fs.promises.readdir(this.uploadsDir).catch(() => [] as string[]);
    const candidates = entries.filter((n) => /^[a-f0-9]{32}\.[a-z]{2,5}$/.test(n));
    const known = new Set((await this.repo.keptAttachmentNames(candidates)).map((r) => r));
    for (const name of candidates) {
      if (known.has(name)) continue;
      const stat = await fs.promises.stat(this.filePath(name)).catch(() => null);
      if (!stat || stat.mtime >= unusedBefore) continue;
      await fs.promises.rm(this.filePath(name), { force: true });
      strays++;
    }
    return { unused: unused.length, expired: expired.length, strays };
  }

  /** Removes an upload nobody's message uses (its uploader, an administrator or a developer). */
  async deleteUpload(name: string, actor: AuthUser): Promise<void> {
    const row = await this.usable(name, actor);
    const refusal = async () => {
      const usage = await this.repo.attachmentUsage(row.id);
      return usage.pending
        ? conflict(MAIL_MSG.fileInPendingMail)
        : usage.sent
          ? conflict(MAIL_MSG.fileInSentMail)
          : null;
    };
    const before = await refusal();
    if (before) throw before;
    if (!(await this.repo.deleteAttachmentIfUnused(row.id)))
      throw (await refusal()) ?? conflict(MAIL_MSG.fileInPendingMail);
    await fs.promises.rm(this.filePath(row.stored_name), { force: true });
  }

  /** The attachments a message names, each one the caller may use (someone else's is unknown) and still kept (else a 422 listing why). */
  async forMessage(names: string[], actor: AuthUser): Promise<AttachmentRow[]> {
    const rows = await this.repo.attachmentsByName(names);
    const byName = new Map(rows.map((r) => [r.stored_name, r]));
    const errors: string[] = [];
    for (const name of names) {
      const row = byName.get(name);
      if (!row || !this.mayUse(row, actor)) errors.push(MAIL_MSG.fileUnknown(name));
      else if (row.purged_at) errors.push(MAIL_MSG.fileRemoved);
    }
    if (errors.length) throw invalid({ files: [...new Set(errors)] });
    return names.map((n) => byName.get(n)!);
  }
}
