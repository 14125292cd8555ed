import { z } from 'zod';

/** The envelope every JSON answer uses (docs/development/architecture.md#envelope). */
export interface Envelope<T = unknown> {
  success: boolean;
  error: string | null;
  statusCode: number;
  message: string;
  _data: T;
}

export interface Links {
  href: string;
  rel?: string;
  title?: string;
}

/**
 * A resource's relationship, flat under `relationships` as the original client reads it
 * (docs/development/original-api.md#flat-relationships): `relationships.numberOfElements`, `relationships.links.href`, and
 * where the original sent them, the related items (`collection.data`, `array`, `data`).
 */
export interface Relationship<T = unknown> {
  numberOfElements: number;
  links: { href: string };
  collection?: { data: T[] };
  array?: T[];
  data?: T[];
}

export interface Resource<P = Record<string, unknown>> {
  links: Links;
  properties: P;
  /** The resource's one relationship (flat), or `{}` when it has none. */
  relationships: Relationship | Record<string, never>;
}

export interface Collection<P = Record<string, unknown>> {
  links: Links;
  numberOfElements: number;
  collections: Resource<P>[];
  /** Server-side pagination (an addition to the original shape; absent fields mean "all"). */
  meta?: PageMeta;
}

export interface PageMeta {
  page: number;
  perPage: number;
  total: number;
  lastPage: number;
  /** The matches were counted no further than `total` (SEARCH_COUNT_CAP): there are more. */
  totalCapped?: true;
}

/**
 * A search across the organisation's students counts its matches up to this many: beyond it the
 * total says "more than", and staff narrow the search (a common name matches 13,000 of 200,000).
 */
export const SEARCH_COUNT_CAP = 1000;

/** Per-field validation errors (422): field path -> Spanish messages. */
export type FieldErrors = Record<string, string[]>;

export const envelopeSchema = <T extends z.ZodTypeAny>(data: T) =>
  z.object({
    success: z.boolean(),
    error: z.string().nullable(),
    statusCode: z.number().int(),
    message: z.string(),
    _data: data,
  });

/** Common list query: server-side pagination, search and sort. */
export const listQuerySchema = z.object({
  page: z.coerce.number().int().min(1).max(1_000_000).optional(),
  perPage: z.coerce.number().int().min(1).max(1000).optional(),
  search: z.string().trim().max(200).optional(),
  sort: z.string().trim().max(60).optional(),
  order: z.enum(['asc', 'desc']).optional(),
});
export type ListQuery = z.infer<typeof listQuerySchema>;
