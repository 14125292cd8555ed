import { z } from 'zod';

/**
 * Building blocks of the original SIGAF 1.8.6 client's reads (docs/development/original-api.md#general-rules). Each
 * endpoint family's schemas (one file per section of §2, named after it) are built from these.
 * Schemas list what the original client reads; `looseObject` lets answers carry more fields.
 */

/** The envelope read on almost every `/api/v2` answer (§1.3). */
export const legacyEnvelope = <T extends z.ZodTypeAny>(data: T) =>
  z.looseObject({
    success: z.boolean(),
    error: z.string().nullable(),
    statusCode: z.number().int(),
    message: z.string(),
    _data: data,
  });

/** A followed link: a path from the backend root or an absolute URL (§1.2). */
export const legacyHref = z
  .string()
  .regex(/^(\/|https?:\/\/)/, 'un enlace relativo a la raíz del servidor o absoluto');

export const legacyLinks = z.looseObject({ href: legacyHref });

/** A resource item `{ links, properties, relationships }` (§1.5). */
export const legacyResource = <P extends z.ZodTypeAny, R extends z.ZodTypeAny = z.ZodTypeAny>(
  properties: P,
  relationships?: R,
) =>
  z.looseObject({
    links: legacyLinks,
    properties,
    relationships: (relationships ?? z.unknown()) as R extends z.ZodTypeAny ? R : z.ZodUnknown,
  });

/** The flat relationship the client reads on catalogues, categories, platforms and tickets (§1.5). */
export const flatRelationship = <E extends z.ZodRawShape = Record<never, never>>(extra?: E) =>
  z.looseObject({
    numberOfElements: z.number().int().min(0),
    links: legacyLinks,
    ...(extra ?? ({} as E)),
  });

/** `_data.collections[]` (§1.4). */
export const legacyCollection = <I extends z.ZodTypeAny>(item: I) =>
  z.looseObject({ collections: z.array(item) });

/** `_data.relationships.collection.data[]` (singular, §1.4). */
export const legacyRelationshipCollection = <I extends z.ZodTypeAny>(item: I) =>
  z.looseObject({
    relationships: z.looseObject({ collection: z.looseObject({ data: z.array(item) }) }),
  });

/** `_data.relationships.collections.data[]` (plural, §1.4). */
export const legacyRelationshipCollections = <I extends z.ZodTypeAny>(item: I) =>
  z.looseObject({
    relationships: z.looseObject({ collections: z.looseObject({ data: z.array(item) }) }),
  });

/** Ids are numbers everywhere, compared with `===` (§1.8). */
export const legacyId = z.number().int();

/** Dates (§1.7). */
export const ddmmyyyy = z.string().regex(/^\d{2}-\d{2}-\d{4}$/, 'dd-mm-yyyy');
export const hhmm = z.string().regex(/^\d{2}:\d{2}$/, 'HH:MM');
export const ddmmyyyyHhmm = z.string().regex(/^\d{2}-\d{2}-\d{4} \d{2}:\d{2}$/, 'dd-mm-yyyy HH:MM');
/** Parseable by `new Date()` with its zone (ISO 8601). */
export const isoDateTime = z
  .string()
  .refine(
    (s) => !Number.isNaN(new Date(s).getTime()) && /T.*(Z|[+-]\d{2}:?\d{2})$/.test(s),
    'ISO 8601 con zona',
  );
