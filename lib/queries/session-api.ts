// Fetching the session routes from the browser. Errors keep the API's
// `{"detail"}` text and status, so the page can say what failed.
import type { SessionRef } from '../session-service/service';

export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

/** `/api/apps/{app}/users/{user}/sessions/{id}` with every id encoded as one path segment. */
export function sessionApiPath(ref: SessionRef): string {
  const segment = encodeURIComponent;
  return `/api/apps/${segment(ref.appName)}/users/${segment(ref.userId)}/sessions/${segment(ref.sessionId)}`;
}

/** Query string of the defined values (`undefined` and `null` left out). */
export function queryString(values: Record<string, string | number | null | undefined>): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(values)) {
    if (value !== undefined && value !== null) params.set(name, String(value));
  }
  const text = params.toString();
  return text ? `?${text}` : '';
}

export async function getJson<T>(url: string, signal?: AbortSignal): Promise<T> {
  let response: Response;
  try {
    response = await fetch(url, { signal, headers: { accept: 'application/json' } });
  } catch (error) {
    if (signal?.aborted) throw error;
    throw new ApiError(0, 'The server could not be reached. Check that Statehouse is running.');
  }
  if (!response.ok) {
    const body = (await response.json().catch(() => null)) as { detail?: unknown } | null;
    const detail = typeof body?.detail === 'string' ? body.detail : response.statusText;
    throw new ApiError(response.status, `${response.status}: ${detail}`);
  }
  return (await response.json()) as T;
}
