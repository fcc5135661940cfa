import { z } from 'zod';

/** An RFC 6901 pointer into a value (`/refund/amounts/0`); the whole value when absent. */
export const pointer = z
  .string()
  .max(4096)
  .regex(/^(\/[^/]*)*$/, 'must be a JSON pointer')
  .default('');
