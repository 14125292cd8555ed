import { z } from 'zod';

/** docs/development/original-api.md §2.17 Files. */

/** §2.17 POST /api/v2/upload-file (multipart `file`, `courseId`): only `success` is read. */
export const uploadFile = z.looseObject({ success: z.literal(true) });
