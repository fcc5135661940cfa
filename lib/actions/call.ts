import type { ActionResult } from '../commands/result';

/**
 * Calls a server action from the browser. An action returns its errors as
 * values, but the request itself can still fail (server down, a body over
 * the size limit, an action id from an older build): that too becomes a value,
 * so a form never loses what the person typed to an exception.
 */
export async function callAction<I, T>(action: (input: I) => Promise<ActionResult<T>>, input: I): Promise<ActionResult<T>> {
  try {
    return await action(input);
  } catch (error) {
    const detail = error instanceof Error && error.message ? ` (${error.message})` : '';
    return {
      ok: false,
      code: 'UNREACHABLE',
      message: `The server did not answer${detail}; nothing was saved. Check the connection and try again.`,
    };
  }
}
