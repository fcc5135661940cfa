// Fetching the session routes from the browser. Errors keep the API's
// `{"detail"}` text and status, so the page can say what failed.

import { storeOfPath, storeRoot } from '../paths';

export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

/** A 4xx (no such session, user or event; bad input): asking again will not change the answer. */
export function isFinalAnswer(error: Error): boolean {
  return error instanceof ApiError && error.status >= 400 && error.status < 500;
}

/**
 * React Query's retry policy for reads whose 4xx answer is final: say so at
 * once, retry only what may pass (network, 5xx).
 */
export function retryTransient(failureCount: number, error: Error): boolean {
  return !isFinalAnswer(error) && failureCount < 3;
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

/**
 * An /api URL for the store the browser's page shows: the page at
 * `/stores/dev/apps/...` reads `/api/stores/dev/...`. URLs are built without
 * a store (lib/paths.ts), so every query follows the page it runs on.
 */
export function inPageStore(url: string): string {
  if (typeof window === 'undefined' || !url.startsWith('/api/') || storeOfPath(url) !== undefined) return url;
  const store = storeOfPath(window.location.pathname);
  return store ? `/api${storeRoot(store)}${url.slice('/api'.length)}` : url;
}

export async function getJson<T>(url: string, signal?: AbortSignal): Promise<T> {
  let response: Response;
  try {
    response = await fetch(inPageStore(url), { signal, headers: { accept: 'application/json' } });
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
