import { z } from 'zod';
import { legacyEnvelope } from './common.js';

/** docs/development/original-api.md §2.16 Mail: attachments and the single and massive messages. */

/** §2.16 POST /api/v2/mail/upload/file: `_data.name` (key, deletion) and `_data.size` (bytes) (SigafMailCompose.vue:205-218). */
export const postMailUploadFile = legacyEnvelope(
  z.looseObject({ name: z.string().min(1), size: z.number().int().min(0) }),
);

/** §2.16 POST /api/v2/mail/delete/file: `_data` truthy, or the chip stays (SigafMailCompose.vue:221-238). */
export const postMailDeleteFile = legacyEnvelope(
  z.custom<unknown>((v) => Boolean(v), '_data verdadero'),
).extend({ success: z.literal(true) });

/** §2.16 POST /api/v2/mail/single: nothing read beyond a 2xx. */
export const postMailSingle = legacyEnvelope(z.unknown()).extend({ success: z.literal(true) });

/** §2.16 POST /api/v2/mail/massive (`ticketsId` a JSON string): nothing read beyond a 2xx. */
export const postMailMassive = legacyEnvelope(z.unknown()).extend({ success: z.literal(true) });
