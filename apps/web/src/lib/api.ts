import { MSG, type Envelope, type FieldErrors } from '@sigaf/contract';
import { clearStoredToken, getStoredToken } from './storage';

/** Same origin: the API server serves the app (and Vite proxies /api in development). */
export const API_BASE_URL = '';

/** A failed call: HTTP status (0 for a network failure), the server's message and per-field errors (422). */
export class ApiError extends Error {
  readonly status: number;
  readonly fieldErrors: FieldErrors;
  readonly body: unknown;

  constructor(status: number, message: string, fieldErrors: FieldErrors = {}, body: unknown = null) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.fieldErrors = fieldErrors;
    this.body = body;
  }
}

export function isApiError(error: unknown): error is ApiError {
  return error instanceof ApiError;
}

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface RequestOptions {
  method?: HttpMethod;
  body?: unknown;
  /** Token to send instead of the stored one (the first-login flow keeps its token only in memory). */
  token?: string | null;
  signal?: AbortSignal;
  /** Do not sign the user out on a 401 (the login call itself). */
  skipUnauthorizedHandler?: boolean;
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
    if (Array.isArray(messages)) result[field] = messages.filter((m): m is string => typeof m === 'string');
    else if (typeof messages === 'string') result[field] = [messages];
  }
  return result;
}

function extractMessage(body: unknown): string | null {
  return isRecord(body) && typeof body.message === 'string' && body.message.trim() !== '' ? body.message : null;
}

export function isEnvelope(body: unknown): body is Envelope {
  return isRecord(body) && typeof body.success === 'boolean' && 'statusCode' in body;
}

function buildHeaders(token: string | null): Headers {
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
    return text; // not JSON (a proxy error page, a bare count...)
  }
}

/** Calls the API and returns the parsed JSON body; throws ApiError for any non-2xx answer. */
export async function apiRequest<T>(path: string, options: RequestOptions = {}): Promise<T> {
  const { method = 'GET', body, signal, skipUnauthorizedHandler = false } = options;
  const token = options.token === undefined ? getStoredToken() : options.token;
  let response: Response;
  try {
    response = await fetch(`${API_BASE_URL}${path}`, {
      method,
      headers: buildHeaders(token),
      body: body === undefined || method === 'GET' ? undefined : JSON.stringify(body),
      signal,
    });
  } catch (error) {
    if (error instanceof DOMException && error.name === 'AbortError') throw error;
    throw new ApiError(0, MSG.unavailable);
  }
  const parsed = await readBody(response);
  if (response.status === 401 && !skipUnauthorizedHandler) {
    clearStoredToken();
    unauthorizedHandler?.();
  }
  if (!response.ok) {
    const fallback = response.status >= 500 ? MSG.fatal : MSG.operationFailed;
    throw new ApiError(response.status, extractMessage(parsed) ?? fallback, extractFieldErrors(parsed), parsed);
  }
  return parsed as T;
}

/** Like apiRequest, for answers in the envelope; an envelope with success false is an error too. */
export async function apiEnvelope<T>(path: string, options: RequestOptions = {}): Promise<Envelope<T>> {
  const body = await apiRequest<unknown>(path, options);
  if (!isEnvelope(body)) throw new ApiError(500, MSG.fatal, {}, body);
  if (!body.success) {
    throw new ApiError(body.statusCode, extractMessage(body) ?? MSG.operationFailed, extractFieldErrors(body), body);
  }
  return body as Envelope<T>;
}

export const api = {
  get: <T>(path: string, options?: Omit<RequestOptions, 'method' | 'body'>) => apiRequest<T>(path, { ...options, method: 'GET' }),
  post: <T>(path: string, body?: unknown, options?: Omit<RequestOptions, 'method' | 'body'>) =>
    apiRequest<T>(path, { ...options, method: 'POST', body }),
  put: <T>(path: string, body?: unknown, options?: Omit<RequestOptions, 'method' | 'body'>) =>
    apiRequest<T>(path, { ...options, method: 'PUT', body }),
  delete: <T>(path: string, options?: Omit<RequestOptions, 'method' | 'body'>) => apiRequest<T>(path, { ...options, method: 'DELETE' }),
};
