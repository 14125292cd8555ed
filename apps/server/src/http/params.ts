import { listQuerySchema } from '@sigaf/contract';
import { z } from 'zod';

/** A positive 32-bit id in the path; anything else is a 422, never a database error. */
export const idParams = z.object({ id: z.coerce.number().int().positive().max(2_147_483_647) });
export const listQuery = listQuerySchema.passthrough();
