import { z } from 'zod';
import { DROP, type AnswerHooks, type ReadAnswer } from './answer-reader.js';
import { fromMoodleErrorBody, MoodleError } from './errors.js';
import {
  errorBodySchema,
  RESPONSE_SCHEMAS,
  type MoodleFunction,
  type MoodleResponse,
} from './schemas.js';

/**
 * What a Moodle answer must be: each function's schema, checked element by element as a list
 * streams in (`checkElements`), then as a whole (`interpretResponse`); and which non-JSON answers
 * are a web server cut mid-request rather than a wrong URL.
 */

/** One HTTP answer: its text (a recorded answer), or what the streamed reader made of it. */
export type RawResponse = { status: number; contentType: string } & ({ body: string } | ReadAnswer);

function describeIssues(error: z.ZodError, at: PropertyKey[] = []): string {
  return error.issues
    .slice(0, 3)
    .map((i) => {
      const path = [...at, ...i.path];
      return `${
        path.length
          ? path
              .map((p) => (typeof p === 'number' ? `[${p}]` : `.${String(p)}`))
              .join('')
              .replace(/^\./, '')
          : '(raíz)'
      }: ${i.message}`;
    })
    .join('; ');
}

/**
 * How a function's answer is checked as it streams in: the schema of the elements of each list
 * (the answer itself, or a member of the answer's object; '' names the answer), and the schema of
 * the rest, with those lists already checked. A member the schema does not know is dropped as
 * it arrives (the schema would drop it at the end).
 */
interface StreamCheck {
  elements: ReadonlyMap<string, z.ZodType>;
  rest: z.ZodType;
  /** The members of an answer that is an object (null: the answer is not). */
  members: ReadonlySet<string> | null;
}

/** `t` with its list (under optional, nullable and default) taking any elements. */
function anyElements(t: z.ZodType): z.ZodType {
  if (t instanceof z.ZodArray) return z.array(z.unknown());
  if (t instanceof z.ZodOptional) return anyElements(t.unwrap() as z.ZodType).optional();
  if (t instanceof z.ZodNullable) return anyElements(t.unwrap() as z.ZodType).nullable();
  if (t instanceof z.ZodDefault)
    return anyElements(t.unwrap() as z.ZodType).default(t._zod.def.defaultValue as never);
  return t;
}

/** The list's element schema under optional, nullable and default; undefined when `t` is no list. */
function elementOf(t: z.ZodType): z.ZodType | undefined {
  if (t instanceof z.ZodArray) return t.element as z.ZodType;
  if (t instanceof z.ZodOptional || t instanceof z.ZodNullable || t instanceof z.ZodDefault)
    return elementOf(t.unwrap() as z.ZodType);
  return undefined;
}

const streamChecks = new Map<MoodleFunction, StreamCheck>();

function streamCheck(wsfunction: MoodleFunction): StreamCheck {
  let check = streamChecks.get(wsfunction);
  if (check) return check;
  const schema = RESPONSE_SCHEMAS[wsfunction] as z.ZodType;
  const elements = new Map<string, z.ZodType>();
  if (schema instanceof z.ZodObject) {
    const shape = schema.shape as Record<string, z.ZodType>;
    const lists = Object.entries(shape).filter(([, t]) => elementOf(t));
    for (const [name, t] of lists) elements.set(name, elementOf(t)!);
    check = {
      elements,
      rest: schema.extend(Object.fromEntries(lists.map(([name, t]) => [name, anyElements(t)]))),
      members: new Set(Object.keys(shape)),
    };
  } else {
    const element = elementOf(schema);
    if (element) elements.set('', element);
    check = { elements, rest: element ? anyElements(schema) : schema, members: null };
  }
  streamChecks.set(wsfunction, check);
  return check;
}

/** The element hook of a call: each element checked against its schema as it is read, kept as the schema keeps it. */
export function checkElements(wsfunction: MoodleFunction): NonNullable<AnswerHooks['element']> {
  const { elements, members } = streamCheck(wsfunction);
  return (list, value, index) => {
    const schema = elements.get(list);
    if (!schema) {
      // A member the schema would drop (or, in a list answer, a member of an error body): not kept.
      if (list !== '' && !members?.has(list)) return DROP;
      throw new MoodleError({
        code: 'invalidresponse',
        wsfunction,
        detail: `${wsfunction}: ${list || '(raíz)'}: se esperaba otro tipo de valor`,
      });
    }
    const result = schema.safeParse(value);
    if (!result.success)
      throw new MoodleError({
        code: 'invalidresponse',
        wsfunction,
        detail: `${wsfunction}: ${describeIssues(result.error, list ? [list, index] : [index])}`,
      });
    return result.data;
  };
}

/**
 * Turns one HTTP answer into the function's typed data, or throws the MoodleError it means.
 * Pure: the fixtures test feeds recorded answers through it.
 */
export function interpretResponse<F extends MoodleFunction>(
  wsfunction: F,
  raw: RawResponse,
): MoodleResponse<F> {
  const text = 'body' in raw ? raw.body : 'text' in raw ? raw.text : '';
  if (raw.status === 403 && text.trim() === '')
    throw new MoodleError({ code: 'wsdisabled', wsfunction, httpStatus: 403 });
  if (raw.status >= 500)
    throw new MoodleError({
      code: 'http',
      wsfunction,
      httpStatus: raw.status,
      detail: `HTTP ${raw.status}`,
      retryable: true,
    });
  if (raw.status !== 200) {
    const hint = raw.status === 404 ? ' (revise la URL del sitio)' : '';
    throw new MoodleError({
      code: 'http',
      wsfunction,
      httpStatus: raw.status,
      detail: `HTTP ${raw.status}${hint}`,
    });
  }
  let parsed: unknown;
  try {
    parsed = 'json' in raw ? raw.json.value : JSON.parse(text);
  } catch {
    const kind = /^\s*<\?xml|^\s*<(RESPONSE|EXCEPTION)\b/i.test(text)
      ? 'XML'
      : /^\s*</.test(text)
        ? 'HTML'
        : text.trim() === ''
          ? 'vacía'
          : 'texto';
    throw new MoodleError({
      code: 'notjson',
      wsfunction,
      httpStatus: raw.status,
      detail: `se recibió ${kind}${raw.contentType ? ` (${raw.contentType})` : ''}`,
    });
  }
  if (
    parsed &&
    typeof parsed === 'object' &&
    !Array.isArray(parsed) &&
    'exception' in parsed &&
    'errorcode' in parsed
  ) {
    const body = errorBodySchema.safeParse(parsed);
    if (body.success) throw fromMoodleErrorBody(wsfunction, body.data);
  }
  // Lists read as a stream were checked element by element as they arrived.
  const checked = 'json' in raw && raw.status === 200;
  const schema = (checked
    ? streamCheck(wsfunction).rest
    : RESPONSE_SCHEMAS[wsfunction]) as unknown as z.ZodType<MoodleResponse<F>>;
  const result = schema.safeParse(parsed);
  if (!result.success) {
    throw new MoodleError({
      code: 'invalidresponse',
      wsfunction,
      detail: `${wsfunction}: ${describeIssues(result.error)}`,
    });
  }
  return result.data;
}

/** Moodle's login page (a wrong URL or a site that asks to sign in), as opposed to any other non-JSON answer. */
const LOGIN_PAGE = /page-login-index|login\/index\.php|\blogin\b/i;

/**
 * A non-JSON answer, on a client whose earlier calls were answered in JSON, that is neither XML
 * nor Moodle's login page: the web server stopped or restarted mid-request (e.g. a 200 with
 * "Terminated: 15"). The URL is right, so it is transient.
 */
export function interruptedAnswer(raw: RawResponse): boolean {
  const text = 'body' in raw ? raw.body : 'text' in raw ? raw.text : '';
  return !/^\s*<\?xml|^\s*<(RESPONSE|EXCEPTION)\b/i.test(text) && !LOGIN_PAGE.test(text);
}
