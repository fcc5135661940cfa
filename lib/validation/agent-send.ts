// What a message to the agent may be, the same for the console's box and the API.
import { z } from 'zod';

/** A message is typed by a person: longer than this is a paste gone wrong. */
export const MAX_MESSAGE_CHARS = 20_000;

export const messageSchema = z
  .string({ error: 'must be a string' })
  .trim()
  .min(1, 'type a message')
  .max(MAX_MESSAGE_CHARS, `must be at most ${MAX_MESSAGE_CHARS.toLocaleString('en')} characters`);

export const sendInput = z.object({ text: messageSchema });
