import type { FieldErrors } from '@sigaf/contract';
import { MSG } from '@sigaf/contract';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { ZodError, type z } from 'zod';
import { failure } from './envelope.js';

/** A domain error with its HTTP status and Spanish message; the error handler turns it into the envelope. */
export class AppError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
    readonly data: unknown = null,
  ) {
    super(message);
  }
}

export const notFound = (message: string = MSG.notFound) => new AppError(404, message);
export const forbidden = (message: string = MSG.forbidden) => new AppError(403, message);
export const conflict = (message: string = MSG.conflict, data: unknown = null) =>
  new AppError(409, message, data);
export const unauthorized = (message: string = MSG.noAuth) => new AppError(401, message);
export const invalid = (errors: FieldErrors, message: string = MSG.validation) =>
  new AppError(422, message, { errors });

export function fieldErrorsFromZod(issues: readonly z.core.$ZodIssue[]): FieldErrors {
  const errors: FieldErrors = {};
  for (const issue of issues) {
    const key = issue.path.length ? issue.path.map(String).join('.') : '_';
    (errors[key] ??= []).push(issue.message);
  }
  return errors;
}

interface PgError {
  code?: string;
  constraint?: string;
  detail?: string;
}

/** PostgreSQL error codes that mean "bad input" or "conflict", never a server fault. */
function fromDatabase(err: PgError): AppError | null {
  switch (err.code) {
    case '23505':
      return conflict('Ya existe un registro con esos datos.');
    case '23503':
      return conflict(
        'El registro está relacionado con otros datos y no se puede modificar o eliminar.',
      );
    case '23502':
    case '23514':
    case '22001':
    case '22003':
    case '22007':
    case '22008':
    case '22P02': // and below: a NUL or a character the encoding cannot hold; a value too large to index
    case '22021':
    case '22P05':
    case '54000':
      return new AppError(422, MSG.validation);
    default:
      return null;
  }
}

/** Node socket errors met when the database server cannot be reached. */
const SOCKET_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);
/** The driver's (pg, pg-pool) errors for a lost or refused connection: plain Errors, told by their text. */
const LOST_CONNECTION =
  /^(Connection terminated|Client has encountered a connection error|Connection ended|timeout exceeded when trying to connect|Client was closed and is not queryable)/;

/**
 * The database is unreachable for a while (restarting, shut down, out of connections): a
 * temporary condition, answered 503 so clients retry, never a 500. SQLSTATE class 08
 * (connection exception), 57P01-57P03 (administrator shutdown, crash shutdown, cannot connect
 * now), 53300 (too many connections).
 */
export function isDatabaseUnavailable(
  err: { code?: unknown; message?: unknown } | null | undefined,
): boolean {
  if (!err) return false;
  const code = typeof err.code === 'string' ? err.code : '';
  if (
    SOCKET_CODES.has(code) ||
    code.startsWith('08') ||
    code === '57P01' ||
    code === '57P02' ||
    code === '57P03' ||
    code === '53300'
  )
    return true;
  return typeof err.message === 'string' && LOST_CONNECTION.test(err.message);
}

/**
 * The database undid a transaction because another one held what it needed in the opposite order
 * (40P01, deadlock) or changed it under it (40001): nothing of it was written, and the same request
 * succeeds when sent again. Answered 503 with a short Retry-After, never a 500.
 */
export function isTransientConflict(err: { code?: unknown } | null | undefined): boolean {
  return err?.code === '40P01' || err?.code === '40001';
}

const FASTIFY_CODES: Record<string, [number, string]> = {
  FST_ERR_CTP_INVALID_JSON_BODY: [400, MSG.badJson],
  FST_ERR_CTP_EMPTY_JSON_BODY: [400, MSG.badJson],
  FST_ERR_CTP_BODY_TOO_LARGE: [413, MSG.payloadTooLarge],
  FST_ERR_CTP_INVALID_MEDIA_TYPE: [415, MSG.unsupportedMedia],
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: [400, MSG.badJson],
  SIGAF_JSON_TOO_DEEP: [400, MSG.jsonTooDeep],
};

/**
 * Errors the router raises before any route or error handler runs (a path that is not valid
 * percent-encoded UTF-8): the envelope, like every other error. Passed to Fastify's constructor.
 */
export function frameworkErrors(
  error: FastifyError,
  _request: FastifyRequest,
  reply: FastifyReply,
): void {
  const status =
    error.code === 'FST_ERR_BAD_URL'
      ? 400
      : (error.statusCode ?? 400) < 500
        ? (error.statusCode ?? 400)
        : 400;
  void reply.status(status).send(failure(status, MSG.badUrl));
}

/** The multipart parser's (busboy) errors for a malformed body: plain Errors, told by their text. */
const MALFORMED_MULTIPART =
  /^(Multipart: |Unexpected end of (form|file)|Malformed (part|urlencoded) |Unsupported content type|Part terminated early|Unexpected end of multipart data)/;

export function registerErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError & PgError, request, reply) => {
    if (error instanceof AppError) {
      return reply
        .status(error.statusCode)
        .send(failure(error.statusCode, error.message, error.data));
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      const errors: FieldErrors = {};
      for (const v of error.validation) {
        const path = (v.instancePath || '').replace(/^\//, '').replace(/\//g, '.') || '_';
        (errors[path] ??= []).push(v.message ?? MSG.validation);
      }
      return reply.status(422).send(failure(422, MSG.validation, { errors }));
    }
    if (error instanceof ZodError) {
      return reply
        .status(422)
        .send(failure(422, MSG.validation, { errors: fieldErrorsFromZod(error.issues) }));
    }
    const mapped = error.code ? FASTIFY_CODES[error.code] : undefined;
    if (mapped) return reply.status(mapped[0]).send(failure(mapped[0], mapped[1]));
    const db = fromDatabase(error);
    if (db) {
      request.log.info(
        { code: error.code, constraint: error.constraint },
        'database rejected input',
      );
      return reply.status(db.statusCode).send(failure(db.statusCode, db.message));
    }
    if (isDatabaseUnavailable(error)) {
      request.log.warn(
        { code: error.code, reqId: request.id, error: error.message },
        'database unavailable',
      );
      return reply.status(503).header('retry-after', '5').send(failure(503, MSG.unavailable));
    }
    if (isTransientConflict(error)) {
      request.log.warn(
        { code: error.code, reqId: request.id, error: error.message },
        'transaction undone by a concurrent one',
      );
      return reply.status(503).header('retry-after', '1').send(failure(503, MSG.unavailable));
    }
    if (!error.statusCode && MALFORMED_MULTIPART.test(error.message ?? '')) {
      return reply.status(400).send(failure(400, MSG.badMultipart));
    }
    if (error.statusCode === 429) {
      return reply.status(429).send(failure(429, MSG.tooManyRequests));
    }
    if (error.statusCode && error.statusCode >= 400 && error.statusCode < 500) {
      return reply
        .status(error.statusCode)
        .send(
          failure(
            error.statusCode,
            MSG.badJson === error.message ? MSG.badJson : 'Solicitud no válida.',
          ),
        );
    }
    request.log.error({ err: error, reqId: request.id }, 'unhandled error');
    return reply.status(500).send(failure(500, MSG.fatal, { requestId: request.id }));
  });
}
