import { batchByFields, encodeFields, toFormBody, type MoodleParams } from './encode.js';
import {
  checkElements,
  interpretResponse,
  interruptedAnswer,
  type RawResponse,
} from './answer-check.js';
import { AnswerTooLarge, type AnswerHooks } from './answer-reader.js';
import { ReadBudget, type ReadLease } from './read-budget.js';
import { MoodleError } from './errors.js';
import { MoodleTransport, RedirectAnswer } from './transport.js';
import { WRITE_FUNCTIONS, type MoodleFunction, type MoodleResponse } from './schemas.js';

/**
 * A typed client of Moodle's REST web services (docs/development/moodle-functions.md): one POST per call to
 * `{base}/webservice/rest/server.php`, form-encoded, JSON answers validated against the
 * function's schema. Errors are MoodleError (by `errorcode`); transient failures of read calls
 * (network, timeout, HTTP 5xx) are retried with backoff; at most `concurrency` calls at a time.
 */

export const REST_PATH = '/webservice/rest/server.php';

export interface MoodleClientOptions {
  /** The site's address, e.g. https://campus.example.cl (a pasted server.php URL is accepted). */
  baseUrl: string;
  token: string;
  /** Per attempt. */
  timeoutMs?: number;
  /** Extra attempts of a read call after a transient failure. */
  retries?: number;
  /** First backoff delay; doubles on each retry (with jitter). */
  retryDelayMs?: number;
  /** Calls in flight at once. */
  concurrency?: number;
  /** Role ids enrolUsers may assign (an admin token can assign ANY role). Student is 5. */
  allowedRoleIds?: readonly number[];
  /** Bytes of one answer, compressed and decoded (MOODLE_MAX_ANSWER_MB); see answer-reader.ts. */
  maxAnswerBytes?: number;
  /** The memory shared with other clients (MOODLE_READ_MEMORY_MB); one of this client's own otherwise. */
  budget?: ReadBudget;
  /** Observes every HTTP attempt (counting calls in a sync, logging). */
  onCall?: (info: { wsfunction: string; attempt: number; ms: number; error?: MoodleError }) => void;
}

/** 256 MB: twice a whole course's grade report of 10,000 students × 50 activities (125 MB). */
export const DEFAULT_MAX_ANSWER_BYTES = 256 * 1024 * 1024;
/** 1 GB: what the answers of all syncs may build at once (MOODLE_READ_MEMORY_MB; docs/operations/moodle.md). */
export const DEFAULT_READ_MEMORY_BYTES = 1024 * 1024 * 1024;

/** The site's base URL: scheme, host and path of the Moodle root, without a trailing slash. */
export function normalizeMoodleUrl(input: string): string {
  const u = new URL(input.trim());
  let path = u.pathname.replace(/\/+$/, '');
  for (const tail of [REST_PATH, '/webservice/rest', '/login/index.php', '/my', '/admin']) {
    if (path.toLowerCase().endsWith(tail)) path = path.slice(0, -tail.length);
  }
  return `${u.protocol}//${u.host}${path}`;
}

/** A counting semaphore: at most `limit` holders at a time, first come first served. */
class Semaphore {
  private active = 0;
  private readonly waiting: Array<() => void> = [];
  constructor(private readonly limit: number) {}

  async run<T>(fn: () => Promise<T>): Promise<T> {
    if (this.active >= this.limit) await new Promise<void>((resolve) => this.waiting.push(resolve));
    else this.active++;
    try {
      return await fn();
    } finally {
      const next = this.waiting.shift();
      if (next) next();
      else this.active--;
    }
  }
}

/** Runs `fn` over the items with at most `limit` in flight; results keep the items' order. */
export async function mapConcurrent<T, R>(
  items: readonly T[],
  limit: number,
  fn: (item: T, index: number) => Promise<R>,
): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await fn(items[i]!, i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(Math.max(1, limit), items.length) }, worker));
  return results;
}

const unclosed = new FinalizationRegistry<ReadLease>((lease) => lease.close());

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export interface EnrolledUsersOptions {
  groupid?: number;
  onlyactive?: boolean;
  /** Comma-separated user fields to return (smaller answers). */
  userfields?: string;
  limitfrom?: number;
  limitnumber?: number;
  sortby?: 'id' | 'firstname' | 'lastname' | 'siteorder';
  sortdirection?: 'ASC' | 'DESC';
}

export interface NewMoodleUser {
  username: string;
  firstname: string;
  lastname: string;
  email: string;
  password?: string;
  createpassword?: boolean;
  idnumber?: string;
  auth?: string;
}

/** The fields a sync needs of an enrolled user (keeps pages small). */
export const SYNC_USER_FIELDS =
  'id,username,idnumber,firstname,lastname,fullname,email,lastcourseaccess,roles,groups';

export class MoodleClient {
  readonly baseUrl: string;
  private readonly endpoint: string;
  private readonly gate: Semaphore;
  private readonly transport: MoodleTransport;
  private readonly timeoutMs: number;
  private readonly retries: number;
  private readonly retryDelayMs: number;
  /** A call of this client was answered (in JSON): a later non-JSON answer is not a wrong URL. */
  private answered = false;
  private readonly allowedRoleIds: readonly number[];
  /** Calls in flight at most. */
  private readonly concurrency: number;
  /** What this client's answers hold of the shared budget, until `close`. */
  private readonly lease: ReadLease;

  constructor(private readonly options: MoodleClientOptions) {
    this.baseUrl = normalizeMoodleUrl(options.baseUrl);
    this.endpoint = `${this.baseUrl}${REST_PATH}`;
    this.concurrency = Math.max(1, options.concurrency ?? 4);
    this.gate = new Semaphore(this.concurrency);
    this.transport = new MoodleTransport(this.endpoint, {
      maxBytes: options.maxAnswerBytes ?? DEFAULT_MAX_ANSWER_BYTES,
    });
    this.timeoutMs = options.timeoutMs ?? 30_000;
    this.retries = Math.max(0, options.retries ?? 2);
    this.retryDelayMs = options.retryDelayMs ?? 300;
    this.allowedRoleIds = options.allowedRoleIds ?? [5];
    this.lease = (options.budget ?? new ReadBudget(DEFAULT_READ_MEMORY_BYTES)).lease();
    // A client dropped without `close` gives its share back when it is collected.
    unclosed.register(this, this.lease, this.lease);
  }

  /** The answers read are no longer held by the caller: their memory goes back to the budget. */
  close() {
    this.lease.close();
    unclosed.unregister(this.lease);
  }

  /** One call: encoded, sent, retried when transient and safe, answered as typed data. */
  async call<F extends MoodleFunction>(
    wsfunction: F,
    params: MoodleParams = {},
  ): Promise<MoodleResponse<F>> {
    const body = toFormBody([
      ['wstoken', this.options.token],
      ['wsfunction', wsfunction],
      ['moodlewsrestformat', 'json'],
      ...encodeFields(params),
    ]);
    const attempts = WRITE_FUNCTIONS.has(wsfunction) ? 1 : 1 + this.retries;
    // Kept over p-retry (9: Node 22+): the backoff is 3 lines; each attempt's lease and onCall stay.
    for (let attempt = 1; ; attempt++) {
      const started = Date.now();
      let held = 0;
      const hooks: AnswerHooks = {
        element: checkElements(wsfunction),
        hold: (n) => {
          this.lease.hold(n);
          held += n;
        },
      };
      try {
        const raw = await this.gate.run(() => this.send(wsfunction, body, hooks));
        let data: MoodleResponse<F>;
        try {
          data = interpretResponse(wsfunction, raw);
        } catch (e) {
          if (
            e instanceof MoodleError &&
            e.code === 'notjson' &&
            this.answered &&
            interruptedAnswer(raw)
          ) {
            throw new MoodleError({
              code: 'interrupted',
              wsfunction,
              httpStatus: raw.status,
              detail: e.message,
              retryable: true,
              cause: e,
            });
          }
          throw e;
        }
        this.answered = true;
        this.options.onCall?.({ wsfunction, attempt, ms: Date.now() - started });
        return data;
      } catch (e) {
        this.lease.give(held);
        const error =
          e instanceof MoodleError
            ? e
            : new MoodleError({
                code: 'network',
                wsfunction,
                detail: String(e),
                retryable: true,
                cause: e,
              });
        this.options.onCall?.({ wsfunction, attempt, ms: Date.now() - started, error });
        if (!error.retryable || attempt >= attempts) throw error;
        const delay = this.retryDelayMs * 2 ** (attempt - 1);
        await sleep(delay / 2 + Math.random() * delay);
      }
    }
  }

  private async send(wsfunction: string, body: string, hooks: AnswerHooks): Promise<RawResponse> {
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), this.timeoutMs);
    try {
      // The token goes to this address only: a redirect is an answer, never followed.
      return await this.transport.post(this.endpoint, body, controller.signal, hooks);
    } catch (e) {
      if (controller.signal.aborted) {
        throw new MoodleError({
          code: 'timeout',
          wsfunction,
          detail: `${this.timeoutMs < 1000 ? `${this.timeoutMs} ms` : `${Math.round(this.timeoutMs / 1000)} s`} sin respuesta`,
          retryable: true,
          cause: e,
        });
      }
      if (e instanceof RedirectAnswer)
        throw new MoodleError({
          code: 'redirect',
          wsfunction,
          httpStatus: e.status,
          retryable: false,
        });
      if (e instanceof AnswerTooLarge)
        throw new MoodleError({ code: 'toolarge', wsfunction, detail: e.detail, retryable: false });
      if (e instanceof MoodleError) throw e;
      // The same words whatever went wrong (refused, unreachable, reset): an answer must not tell
      // open ports from closed ones. The cause stays on the error for the server's log.
      throw new MoodleError({ code: 'network', wsfunction, retryable: true, cause: e });
    } finally {
      clearTimeout(timer);
    }
  }

  /** Runs a write function over items in batches of a safe size; answers concatenated. */
  private async batched<T extends MoodleParams[string], R>(
    items: readonly T[],
    send: (batch: T[]) => Promise<R[] | null>,
  ): Promise<R[]> {
    const batches = batchByFields(items);
    const out: R[] = [];
    for (const [i, batch] of batches.entries()) {
      try {
        out.push(...((await send(batch)) ?? []));
      } catch (e) {
        throw e instanceof MoodleError ? e.inBatch(i, batches.length) : e;
      }
    }
    return out;
  }

  // --- Site -------------------------------------------------------------------------------

  getSiteInfo() {
    return this.call('core_webservice_get_site_info');
  }

  // --- Categories and courses -------------------------------------------------------------

  getCategories(
    criteria: Array<{ key: string; value: string | number }> = [],
    addsubcategories?: boolean,
  ) {
    return this.call('core_course_get_categories', { criteria, addsubcategories });
  }

  /** Courses by id; without ids every course except the site front page (id 1, format "site"). */
  async getCourses(ids?: readonly number[]) {
    const courses = await this.call(
      'core_course_get_courses',
      ids?.length ? { options: { ids: [...ids] } } : {},
    );
    return ids?.length ? courses : courses.filter((c) => c.format !== 'site' && c.id !== 1);
  }

  getCoursesByField(
    field: '' | 'id' | 'ids' | 'shortname' | 'idnumber' | 'category' | 'sectionid',
    value?: string | number,
  ) {
    return this.call('core_course_get_courses_by_field', { field, value });
  }

  getCourseContents(
    courseid: number,
    options: Array<{ name: string; value: string | number | boolean }> = [],
  ) {
    return this.call('core_course_get_contents', {
      courseid,
      options: options.length ? options : undefined,
    });
  }

  // --- Enrolments -------------------------------------------------------------------------

  getEnrolledUsers(courseid: number, o: EnrolledUsersOptions = {}) {
    const options = Object.entries(o)
      .filter(([, v]) => v !== undefined)
      .map(([name, value]) => ({ name, value: value as string | number | boolean }));
    return this.call('core_enrol_get_enrolled_users', {
      courseid,
      options: options.length ? options : undefined,
    });
  }

  /**
   * Every enrolled user, page by page (ordered by id so that pages do not overlap). After a full
   * first page the next ones are asked for as many at a time as calls may be in flight, until a
   * short one: a large course's participants arrive in a few round trips instead of one per page
   * (at most that many pages past the end are asked for, and come back empty).
   */
  async getAllEnrolledUsers(
    courseid: number,
    o: Omit<EnrolledUsersOptions, 'limitfrom' | 'limitnumber' | 'sortby' | 'sortdirection'> & {
      pageSize?: number;
    } = {},
  ) {
    const { pageSize = 500, ...rest } = o;
    const page = (from: number) =>
      this.getEnrolledUsers(courseid, {
        ...rest,
        sortby: 'id',
        sortdirection: 'ASC',
        limitfrom: from,
        limitnumber: pageSize,
      });
    const all: MoodleResponse<'core_enrol_get_enrolled_users'> = await page(0);
    for (let from = pageSize; all.length === from; from += this.concurrency * pageSize) {
      for (const users of await Promise.all(
        Array.from({ length: this.concurrency }, (_, i) => page(from + i * pageSize)),
      )) {
        all.push(...users);
        if (users.length < pageSize) return all;
      }
    }
    return all;
  }

  /** Enrols with the manual plugin; refuses role ids outside `allowedRoleIds` before calling. */
  async enrolUsers(
    enrolments: ReadonlyArray<{
      roleid?: number;
      userid: number;
      courseid: number;
      timestart?: number;
      timeend?: number;
      suspend?: boolean;
    }>,
  ) {
    const rows = enrolments.map((e) => ({ ...e, roleid: e.roleid ?? 5 }));
    const bad = rows.find((e) => !this.allowedRoleIds.includes(e.roleid));
    if (bad)
      throw new MoodleError({
        code: 'rolenotallowed',
        wsfunction: 'enrol_manual_enrol_users',
        detail: `rol ${bad.roleid}`,
      });
    await this.batched(rows, (batch) =>
      this.call('enrol_manual_enrol_users', { enrolments: batch }).then(() => null),
    );
  }

  // --- Progress ---------------------------------------------------------------------------

  getActivitiesCompletionStatus(courseid: number, userid: number) {
    return this.call('core_completion_get_activities_completion_status', { courseid, userid });
  }

  getCourseCompletionStatus(courseid: number, userid: number) {
    return this.call('core_completion_get_course_completion_status', { courseid, userid });
  }

  /** userid 0: every user of the course (or of the group) in one call. */
  getGradeItems(courseid: number, userid = 0, groupid = 0) {
    return this.call('gradereport_user_get_grade_items', { courseid, userid, groupid });
  }

  // --- Users ------------------------------------------------------------------------------

  /** Users by a field; values Moodle does not know are silently left out of the answer. */
  async getUsersByField(
    field: 'id' | 'idnumber' | 'username' | 'email',
    values: ReadonlyArray<string | number>,
  ) {
    if (!values.length) return [];
    const out: MoodleResponse<'core_user_get_users_by_field'> = [];
    for (const batch of batchByFields([...values], 1000))
      out.push(...(await this.call('core_user_get_users_by_field', { field, values: batch })));
    return out;
  }

  /** Creates users (all-or-nothing per batch); usernames must be lower case. */
  createUsers(users: readonly NewMoodleUser[]) {
    return this.batched(
      users.map((u) => ({ ...u })),
      (batch) => this.call('core_user_create_users', { users: batch }),
    );
  }

  // --- Groups -----------------------------------------------------------------------------

  getCourseGroups(courseid: number) {
    return this.call('core_group_get_course_groups', { courseid });
  }

  createGroups(
    groups: ReadonlyArray<{
      courseid: number;
      name: string;
      description?: string;
      idnumber?: string;
    }>,
  ) {
    return this.batched(
      groups.map((g) => ({ ...g, description: g.description ?? '' })),
      (batch) => this.call('core_group_create_groups', { groups: batch }),
    );
  }

  async addGroupMembers(members: ReadonlyArray<{ groupid: number; userid: number }>) {
    await this.batched(
      members.map((m) => ({ ...m })),
      (batch) => this.call('core_group_add_group_members', { members: batch }).then(() => null),
    );
  }

  async getGroupMembers(groupids: readonly number[]) {
    if (!groupids.length) return [];
    const out: MoodleResponse<'core_group_get_group_members'> = [];
    for (const batch of batchByFields([...groupids], 1000))
      out.push(...(await this.call('core_group_get_group_members', { groupids: batch })));
    return out;
  }
}
