import type { Collection, Envelope, PageMeta, Relationship, Resource } from '@sigaf/contract';
import { MSG } from '@sigaf/contract';
import type { FastifyRequest } from 'fastify';

/** Builders of the envelope, resource and collection shapes (SPEC.md §3, BEHAVIOUR.md §1). */
export function ok<T>(data: T, message: string = MSG.ok, statusCode = 200): Envelope<T> {
  return { success: true, error: null, statusCode, message, _data: data };
}

export function created<T>(data: T, message: string = MSG.created): Envelope<T> {
  return ok(data, message, 201);
}

export function failure<T = null>(statusCode: number, message: string, data: T = null as T): Envelope<T> {
  return { success: false, error: message, statusCode, message, _data: data };
}

/** Links are absolute: PUBLIC_URL when configured, otherwise the request's own scheme and host. */
export function baseUrl(request: FastifyRequest): string {
  const configured = request.server.config.PUBLIC_URL;
  if (configured) return configured.replace(/\/+$/, '');
  return `${request.protocol}://${request.host}`;
}

export function href(request: FastifyRequest, path: string): string {
  return `${baseUrl(request)}${path.startsWith('/') ? path : `/${path}`}`;
}

export function resource<P>(
  request: FastifyRequest,
  path: string,
  properties: P,
  relationships: Relationship | Record<string, never> = {},
): Resource<P> {
  return { links: { href: href(request, path), rel: 'self' }, properties, relationships };
}

export function relationship<T>(request: FastifyRequest, path: string, count: number, data?: T[]): Relationship<T> {
  return {
    numberOfElements: count,
    links: { href: href(request, path) },
    ...(data ? { collection: { data } } : {}),
  };
}

export function collection<P>(
  request: FastifyRequest,
  path: string,
  title: string,
  items: Resource<P>[],
  meta?: PageMeta,
): Collection<P> {
  return {
    links: { href: href(request, path), title, rel: 'self' },
    numberOfElements: meta ? meta.total : items.length,
    collections: items,
    ...(meta ? { meta } : {}),
  };
}
