import { IDEMPOTENCY_HEADER, MSG, type Envelope, type FieldErrors } from '@sigaf/contract';
import { clearStoredToken, getStoredToken, setStoredToken } from './storage';

/** Same origin: the API server serves the app (and Vite proxies /api in development). */
export const API_BASE_URL = '';

/** A failed call: HTTP status (0 for a network failure), the server's message and per-field errors (422). */
export class ApiError extends Error {
  readonly status: number;
  readonly fieldErrors: FieldErrors;
  readonly body: unknown;

  constructor(
    status: number,
    message: string,
    fieldErrors: FieldErrors = {},
    body: unknown = null,
  ) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.fieldErrors = fieldErrors;
    this.body = body;
  }
}

/** The access token in localStorage (TOKEN_STORAGE_KEY). */
export const tokenStore = {
  get: getStoredToken,
  set: setStoredToken,
  clear: clearStoredToken,
};

export type QueryValue = string | number | boolean | null | undefined;

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** Sent as JSON (not for GET). */
  body?: unknown;
  /** Query string; null, undefined and '' are left out. */
  query?: Record<string, QueryValue>;
  /** Token to send instead of the stored one; null sends none (the first-login change keeps its token in memory). */
  token?: string | null;
  /** Do not sign the user out on a 401 (the login call and the first-login flow). */
  skipAuthRedirect?: boolean;
  signal?: AbortSignal;
  /** Sent as the Idempotency-Key header: the server makes a send under one key once (sendOnce). */
  idempotencyKey?: string;
}

type UnauthorizedHandler = () => void;
let unauthorizedHandler: UnauthorizedHandler | null = null;

/** The session registers how to sign the user out when the server answers 401. */
export function setUnauthorizedHandler(handler: UnauthorizedHandler | null): void {
  unauthorizedHandler = handler;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Per-field messages of a 422 answer: `_data.errors = { field: [messages] }`. */
export function extractFieldErrors(body: unknown): FieldErrors {
  if (!isRecord(body) || !isRecord(body._data) || !isRecord(body._data.errors)) return {};
  const result: FieldErrors = {};
  for (const [field, messages] of Object.entries(body._data.errors)) {
    if (Array.isArray(messages))
      result[field] = messages.filter((m): m is string => typeof m === 'string');
    else if (typeof messages === 'string') result[field] = [messages];
  }
  return result;
}

function extractMessage(body: unknown): string | null {
  return isRecord(body) && typeof body.message === 'string' && body.message.trim() !== ''
    ? body.message
    : null;
}

export function isEnvelope(body: unknown): body is Envelope {
  return isRecord(body) && typeof body.success === 'boolean' && 'statusCode' in body;
}

export function buildUrl(path: string, query?: Record<string, QueryValue>): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query ?? {})) {
    if (value !== null && value !== undefined && value !== '') params.set(key, String(value));
  }
  const qs = params.toString();
  return `${API_BASE_URL}${path}${qs ? `${path.includes('?') ? '&' : '?'}${qs}` : ''}`;
}

export function buildHeaders(token: string | null): Headers {
  const headers = new Headers({
    'Content-Type': 'application/json',
    Accept: 'application/json',
    'X-Requested-With': 'XMLHttpRequest',
  });
  if (token) headers.set('Authorization', `Bearer ${token}`);
  return headers;
}

async function readBody(response: Response): Promise<unknown> {
  const text = await response.text();
  if (text === '') return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text; // not JSON (a proxy error page...)
  }
}

/**
 * Calls the API and returns the parsed JSON body. Throws ApiError for a non-2xx answer and for
 * an envelope with `success: false`. A 401 (except with skipAuthRedirect) clears the token and
 * signs the user out.
 */
export async function request<T = unknown>(path: string, options: RequestOptions = {}): Promise<T> {
  const { method = 'GET', body, query, signal, skipAuthRedirect = false, idempotencyKey } = options;
  const token = options.token === undefined ? tokenStore.get() : options.token;
  const headers = buildHeaders(token);
  if (idempotencyKey) headers.set(IDEMPOTENCY_HEADER, idempotencyKey);
  let response: Response;
  try {
    response = await fetch(buildUrl(path, query), {
      method,
      headers,
      body: body === undefined || method === 'GET' ? undefined : JSON.stringify(body),
      signal,
    });
  } catch (error) {
    if (error instanceof DOMException && error.name === 'AbortError') throw error;
    throw new ApiError(0, MSG.unavailable);
  }
  const parsed = await readBody(response);
  if (response.status === 401 && !skipAuthRedirect) {
    tokenStore.clear();
    unauthorizedHandler?.();
  }
  if (!response.ok) {
    const fallback = response.status >= 500 ? MSG.fatal : MSG.operationFailed;
    throw new ApiError(
      response.status,
      extractMessage(parsed) ?? fallback,
      extractFieldErrors(parsed),
      parsed,
    );
  }
  if (isEnvelope(parsed) && !parsed.success) {
    throw new ApiError(
      parsed.statusCode,
      extractMessage(parsed) ?? MSG.operationFailed,
      extractFieldErrors(parsed),
      parsed,
    );
  }
  return parsed as T;
}

/** A fresh Idempotency-Key (random, 32 hex digits): crypto.getRandomValues works on plain HTTP too, randomUUID does not. */
export function newIdempotencyKey(): string {
  return Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) =>
    b.toString(16).padStart(2, '0'),
  ).join('');
}

/** No answer came back (the network, or a proxy in front of the server): the send may have been made. */
const answerLost = (err: unknown) =>
  err instanceof ApiError &&
  (err.status === 0 || err.status === 502 || err.status === 503 || err.status === 504);

/**
 * A send (a mail) for one user action: a fresh Idempotency-Key, and one automatic retry with the
 * same key when the answer was lost, so that the server makes it once (docs/development/api.md#idempotency).
 */
export async function sendOnce<T = unknown>(
  path: string,
  options: RequestOptions = {},
): Promise<T> {
  const sent = {
    ...options,
    method: options.method ?? 'POST',
    idempotencyKey: newIdempotencyKey(),
  };
  try {
    return await request<T>(path, sent);
  } catch (err) {
    if (!answerLost(err) || sent.signal?.aborted) throw err;
    return request<T>(path, sent);
  }
}

/** GET (by default) an envelope and return its `_data`. */
export async function getData<T>(path: string, options: RequestOptions = {}): Promise<T> {
  const envelope = await request<Envelope<T>>(path, options);
  if (!isEnvelope(envelope)) throw new ApiError(500, MSG.fatal, {}, envelope);
  return envelope._data;
}

/** Offers a Blob to the user as a download. */
export function saveBlob(blob: Blob, filename: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = filename;
  link.style.display = 'none';
  document.body.appendChild(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

async function fileRequest(
  path: string,
  init: { method: 'GET' | 'POST'; body?: FormData; query?: Record<string, QueryValue> },
): Promise<Response> {
  const headers = buildHeaders(tokenStore.get());
  headers.delete('Content-Type'); // the browser sets the multipart boundary
  let response: Response;
  try {
    response = await fetch(buildUrl(path, init.query), {
      method: init.method,
      headers,
      body: init.body,
    });
  } catch {
    throw new ApiError(0, MSG.unavailable);
  }
  if (response.status === 401) {
    tokenStore.clear();
    unauthorizedHandler?.();
  }
  if (!response.ok) {
    const parsed = await readBody(response);
    throw new ApiError(
      response.status,
      extractMessage(parsed) ?? MSG.operationFailed,
      extractFieldErrors(parsed),
      parsed,
    );
  }
  return response;
}

/** Multipart upload (files): same headers and errors as request(), the browser sets the boundary. */
export async function upload<T = unknown>(path: string, form: FormData): Promise<T> {
  return (await readBody(await fileRequest(path, { method: 'POST', body: form }))) as T;
}

/** Downloads a file answer and saves it under the name the server gives it. */
export async function download(
  path: string,
  query?: Record<string, QueryValue>,
  fallbackName = 'archivo.xlsx',
): Promise<void> {
  const response = await fileRequest(path, { method: 'GET', query });
  const disposition = response.headers.get('content-disposition') ?? '';
  const m = /filename\*=UTF-8''([^;]+)/.exec(disposition) ?? /filename="([^"]+)"/.exec(disposition);
  saveBlob(await response.blob(), m ? decodeURIComponent(m[1]!) : fallbackName);
}
