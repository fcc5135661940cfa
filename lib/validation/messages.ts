/** Messages the browser's live checks and the server actions share word for word. */
export const EMPTY_EVENT_MESSAGE = 'An event needs text, a function call or response, or a state delta.';
