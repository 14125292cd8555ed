import type { Collection, Envelope, PageMeta, Relationship, Resource } from '@sigaf/contract';
import { MSG } from '@sigaf/contract';
import type { FastifyRequest } from 'fastify';
import type { Config } from '../config.js';

/**
 * What presenting an answer reads of its request: the path, the caller and the configured public
 * URL. A request is one; so is the plain description the answer-building thread gets
 * (modules/answers/builders.ts).
 */
export type Asker = Pick<FastifyRequest, 'url' | 'auth'> & {
  server: { config: Pick<Config, 'PUBLIC_URL'> };
};

/** Builders of the envelope, resource and collection shapes (docs/development/architecture.md#envelope). */
export function ok<T>(data: T, message: string = MSG.ok, statusCode = 200): Envelope<T> {
  return { success: true, error: null, statusCode, message, _data: data };
}

export function created<T>(data: T, message: string = MSG.created): Envelope<T> {
  return ok(data, message, 201);
}

export function failure<T = null>(
  statusCode: number,
  message: string,
  data: T = null as T,
): Envelope<T> {
  return { success: false, error: message, statusCode, message, _data: data };
}

/**
 * The base of links in answers: PUBLIC_URL when configured (absolute links), otherwise nothing
 * (links are paths from the server's root, which the original client joins to its backend
 * address). Never the request's Host or X-Forwarded-Host: a client could put any host there.
 */
export function baseUrl(request: Asker): string {
  const configured = request.server.config.PUBLIC_URL;
  return configured ? configured.replace(/\/+$/, '') : '';
}

export function href(request: Asker, path: string): string {
  return `${baseUrl(request)}${path.startsWith('/') ? path : `/${path}`}`;
}

export function resource<P>(
  request: Asker,
  path: string,
  properties: P,
  relationships: Relationship | Record<string, never> = {},
): Resource<P> {
  return { links: { href: href(request, path), rel: 'self' }, properties, relationships };
}

export function relationship<T>(
  request: Asker,
  path: string,
  count: number,
  data?: T[],
): Relationship<T> {
  return {
    numberOfElements: count,
    links: { href: href(request, path) },
    ...(data ? { collection: { data } } : {}),
  };
}

export function collection<P>(
  request: Asker,
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

/**
 * A Laravel paginator (the original server's `paginate()`), read by the original client's
 * Seguimiento (docs/development/original-api.md#list-containers): `data`, `total`, `current_page`, `next_page_url` (null on
 * the last page), and the rest of Laravel's keys. Page URLs keep the request's other query values.
 */
export function laravelPaginator<T>(request: Asker, data: T[], meta: PageMeta) {
  const [path, search = ''] = request.url.split('?') as [string, string?];
  const pageUrl = (page: number) => {
    const query = new URLSearchParams(search);
    query.set('page', String(page));
    return href(request, `${path}?${query.toString()}`);
  };
  const from = data.length ? (meta.page - 1) * meta.perPage + 1 : null;
  return {
    current_page: meta.page,
    data,
    first_page_url: pageUrl(1),
    from,
    last_page: meta.lastPage,
    last_page_url: pageUrl(meta.lastPage),
    next_page_url: meta.page < meta.lastPage ? pageUrl(meta.page + 1) : null,
    path: href(request, path),
    per_page: meta.perPage,
    prev_page_url: meta.page > 1 ? pageUrl(meta.page - 1) : null,
    to: from === null ? null : from + data.length - 1,
    total: meta.total,
  };
}
