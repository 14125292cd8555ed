import {
  MOODLE_MSG,
  MOODLE_OPTIONAL_FUNCTIONS,
  MOODLE_SYNC_FUNCTIONS,
  type MoodleConnectionReport,
  type MoodleSettingsInput,
} from '@sigaf/contract';
import type { Config } from '../../config.js';
import type { AuthUser } from '../../http/auth.js';
import { AppError, invalid, notFound } from '../../http/errors.js';
import { decryptSecret, encryptSecret } from '../../lib/crypto.js';
import { MoodleClient, normalizeMoodleUrl } from '../../moodle/client.js';
import { ReadBudget } from '../../moodle/read-budget.js';
import { isMoodleError, MoodleError } from '../../moodle/errors.js';
import type { AuditRepository } from '../audit/repository.js';
import { probeCapabilities } from './capabilities.js';
import type { CourseContext, MoodleSyncRepository } from './repository.js';

/** A Moodle failure as an API answer: 422 when the settings or Moodle's setup are wrong, 502 when Moodle failed. */
export function moodleFailure(e: MoodleError): AppError {
  const upstream =
    e.retryable || e.code === 'invalidresponse' || e.code === 'http' || e.code === 'toolarge';
  return new AppError(upstream ? 502 : 422, e.message, {
    moodle: { code: e.code, wsfunction: e.wsfunction },
  });
}

/**
 * The Moodle connection of each platform (URL, token encrypted at rest and never returned), the
 * connection test, and clients for a platform or a course; the stored token only ever goes to
 * the stored URL.
 */
export class MoodleConnectionService {
  /** Shared by every client of this server: what their answers may hold at once. */
  private readonly budget: ReadBudget;

  constructor(
    private readonly repo: MoodleSyncRepository,
    private readonly audit: AuditRepository,
    private readonly config: Config,
  ) {
    this.budget = new ReadBudget(config.MOODLE_READ_MEMORY_MB * 1024 * 1024);
  }

  private async platform(id: number) {
    const p = await this.repo.platform(id);
    if (!p) throw notFound();
    return p;
  }

  private decrypt(stored: string): string {
    try {
      return decryptSecret(stored, this.config.APP_SECRET);
    } catch {
      throw new AppError(
        422,
        'No se pudo descifrar el token de Moodle guardado: vuelva a ingresarlo.',
      );
    }
  }

  async settings(platformId: number) {
    const p = await this.platform(platformId);
    return {
      platformId: p.id,
      description: p.description,
      url: p.url,
      hasToken: p.token_encrypted !== null,
    };
  }

  /** The stored token only ever goes to the stored URL: another URL needs its token in the same request. */
  private assertTokenForUrl(
    stored: { url: string | null; token_encrypted: string | null },
    url: string,
    token: string | undefined,
  ) {
    if (token || !stored.token_encrypted) return;
    if (!stored.url || normalizeMoodleUrl(url) !== normalizeMoodleUrl(stored.url))
      throw invalid({ token: [MOODLE_MSG.tokenForNewUrl] });
  }

  async saveSettings(platformId: number, input: MoodleSettingsInput, actor: AuthUser, ip: string) {
    const p = await this.platform(platformId);
    if (!input.token && !p.token_encrypted) throw invalid({ token: [MOODLE_MSG.tokenRequired] });
    this.assertTokenForUrl(p, input.url, input.token);
    const url = normalizeMoodleUrl(input.url);
    await this.repo.savePlatform(
      platformId,
      url,
      input.token ? encryptSecret(input.token, this.config.APP_SECRET) : undefined,
    );
    await this.audit.record({
      userId: actor.id,
      action: 'update',
      entity: 'platforms.moodle',
      entityId: platformId,
      changes: { url, token: input.token ? '***' : undefined },
      ip,
    });
    return this.settings(platformId);
  }

  /** A client with the configured limits; `allowedRoleIds`: the roles it may enrol with. Close it when its answers are no longer held. */
  client(
    url: string,
    token: string,
    onCall?: () => void,
    allowedRoleIds?: readonly number[],
  ): MoodleClient {
    return new MoodleClient({
      baseUrl: url,
      token,
      timeoutMs: this.config.MOODLE_TIMEOUT_MS,
      retries: this.config.MOODLE_RETRIES,
      concurrency: this.config.MOODLE_CONCURRENCY,
      maxAnswerBytes: this.config.MOODLE_MAX_ANSWER_MB * 1024 * 1024,
      budget: this.budget,
      allowedRoleIds,
      onCall: onCall && (() => onCall()),
    });
  }

  /**
   * core_webservice_get_site_info with the stored settings, or with unsaved ones to try: the
   * functions the token's service lacks, and each capability the sync needs, checked where it can be.
   */
  async testConnection(platformId: number, override: { url?: string; token?: string }) {
    const p = await this.platform(platformId);
    if (override.url) this.assertTokenForUrl(p, override.url, override.token);
    const url = override.url ?? p.url;
    const token = override.token ?? (p.token_encrypted ? this.decrypt(p.token_encrypted) : null);
    if (!url || !token) throw new AppError(422, MOODLE_MSG.notConfigured);
    const client = this.client(url, token);
    try {
      let info;
      try {
        info = await client.getSiteInfo();
      } catch (e) {
        throw isMoodleError(e) ? moodleFailure(e) : e;
      }
      const available = new Set(info.functions.map((f) => f.name));
      const missingFunctions = MOODLE_SYNC_FUNCTIONS.filter((f) => !available.has(f));
      // The capabilities, judged by their effect on a course already linked (see probeCapabilities):
      // without username and ID number nobody can be matched by RUT; a hidden activity the token's
      // user cannot see is left out of the course contents but kept in the grade report.
      const moodleCourseId = await this.repo.linkedMoodleCourse(platformId);
      const probe = await probeCapabilities(client, {
        moodleCourseId,
        selfId: info.userid,
        siteAdmin: info.userissiteadmin === true,
        available,
      });
      const report: MoodleConnectionReport = {
        ok: missingFunctions.length === 0,
        siteName: info.sitename,
        siteUrl: info.siteurl,
        release: info.release ?? null,
        version: info.version ?? null,
        username: info.username,
        userIsSiteAdmin: info.userissiteadmin ?? null,
        missingFunctions,
        missingOptionalFunctions: MOODLE_OPTIONAL_FUNCTIONS.filter((f) => !available.has(f)),
        identityWarning: probe.identityWarning,
        hiddenActivitiesWarning: probe.hiddenActivitiesWarning,
        capabilities: probe.capabilities,
        checkedMoodleCourseId: moodleCourseId ?? null,
      };
      return report;
    } finally {
      client.close();
    }
  }

  /** The course with a Moodle id on a platform whose connection is set: 404 / 422 otherwise. */
  async courseContext(
    courseId: number,
  ): Promise<CourseContext & { id_course_moodle: number; url: string; token: string }> {
    const c = await this.repo.course(courseId);
    if (!c) throw notFound();
    if (!c.id_course_moodle) throw new AppError(422, MOODLE_MSG.courseWithoutMoodle);
    if (!c.url || !c.token_encrypted) throw new AppError(422, MOODLE_MSG.notConfigured);
    return {
      ...c,
      id_course_moodle: c.id_course_moodle,
      url: c.url,
      token: this.decrypt(c.token_encrypted),
    };
  }

  /** Client of a course's platform with the decrypted token (404 / 422 as courseContext). */
  async courseClient(courseId: number, onCall?: () => void) {
    const course = await this.courseContext(courseId);
    return { course, client: this.client(course.url, course.token, onCall) };
  }

  /** Client of a platform's stored settings (422 when the connection is not configured). */
  async platformClient(platformId: number) {
    const p = await this.platform(platformId);
    if (!p.url || !p.token_encrypted) throw new AppError(422, MOODLE_MSG.notConfigured);
    return this.client(p.url, this.decrypt(p.token_encrypted));
  }
}
