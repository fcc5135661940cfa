import { z } from 'zod';

/** `preview=1`: large values cut, each naming where its whole is (lib/data/value-cut.ts); what the session page asks for. */
export const previewQuery = {
  preview: z
    .enum(['0', '1'], { error: 'must be 0 or 1' })
    .optional()
    .transform((value) => value === '1'),
};
