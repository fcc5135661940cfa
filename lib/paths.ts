// Every URL the console builds: its pages and its API. Ids are path
// segments, so they are always encoded.
import type { SessionRef } from './session-service/store';
import type { TemplateDialect } from './session-service/template';

const segment = encodeURIComponent;

/**
 * Several stores side by side: each configured store's pages are under
 * `/stores/{storeId}` (`/stores/dev/apps/...`) and its API under
 * `/api/stores/{storeId}`; the first store's are also at the root
 * (`/apps/...`, `/api/apps/...`). Every builder below takes the store as its
 * last argument: omitted, the root (the first store).
 */
export const STORES_PATH = '/stores';
/** The store's prefix: '' for the root (the first store). */
export const storeRoot = (store?: string) => (store === undefined ? '' : `${STORES_PATH}/${segment(store)}`);
/** The store a page path names (`/stores/dev/apps` → `dev`), undefined at the root; null when its id is malformed. */
export function storeOfPath(pathname: string): string | null | undefined {
  const match = /^\/(?:api\/)?stores\/([^/]+)(?:\/|$)/.exec(pathname);
  if (!match) return undefined;
  try {
    return decodeURIComponent(match[1] ?? '');
  } catch {
    return null;
  }
}
/** The path without its store prefix (`/stores/dev/apps/x` → `/apps/x`, `/api/stores/dev/apps` → `/api/apps`). */
export const withoutStore = (pathname: string) => pathname.replace(/^(\/api)?\/stores\/[^/]+(?=\/|$)/, '$1') || '/';

/** A console page or /api path built without a store (as every builder here does by default), placed in `store`. */
export function inStore(path: string, store: string | undefined): string {
  if (store === undefined || storeOfPath(path) !== undefined) return path;
  if (path === '/api' || path.startsWith('/api/')) return `/api${storeRoot(store)}${path.slice('/api'.length)}`;
  const pagePath = [APPS_PATH, PREVIEW_PATH, COMPARE_PATH, AUDIT_PATH].some(
    (root) => path === root || path.startsWith(`${root}/`) || path.startsWith(`${root}?`),
  );
  return pagePath ? `${storeRoot(store)}${path}` : path;
}

export const APPS_PATH = '/apps';
export const appsPath = (store?: string) => `${storeRoot(store)}${APPS_PATH}`;
export const appPath = (app: string, store?: string) => `${appsPath(store)}/${segment(app)}`;
export const userPath = (app: string, user: string, store?: string) => `${appPath(app, store)}/users/${segment(user)}`;
export const sessionPath = (app: string, user: string, session: string, store?: string) =>
  `${userPath(app, user, store)}/sessions/${segment(session)}`;

export const ACCOUNTS_PATH = '/admin/accounts';

/** One side of a comparison: a session, or (without sessionId) a user. */
export interface CompareSide {
  appName: string;
  userId: string;
  sessionId?: string;
}

export const COMPARE_PATH = '/compare';

export const AUDIT_PATH = '/audit';
/** The audit page with these filters (actor, app, user, key, since, until). */
export const auditPath = (filters: Record<string, string> = {}) => {
  const search = new URLSearchParams(filters).toString();
  return search ? `${AUDIT_PATH}?${search}` : AUDIT_PATH;
};
/** The audit log's download, as JSON or CSV, with the page's filters. */
export const auditExportPath = (format: 'json' | 'csv', filters: Record<string, string> = {}) =>
  `/api/audit?${new URLSearchParams({ format, ...filters }).toString()}`;

/**
 * The compare page: `/compare?app=…&user=…&session=…&app2=…&user2=…&session2=…`.
 * Without sessions it compares two users. The second side's app and user are
 * left out when they are the first's; without a second side the page offers
 * a choice of one.
 */
export function comparePath(left: CompareSide, right?: CompareSide): string {
  const params = new URLSearchParams({ app: left.appName, user: left.userId });
  if (left.sessionId !== undefined) params.set('session', left.sessionId);
  if (right) {
    if (right.appName !== left.appName) params.set('app2', right.appName);
    if (right.userId !== left.userId) params.set('user2', right.userId);
    if (right.sessionId !== undefined) params.set('session2', right.sessionId);
  }
  return `${COMPARE_PATH}?${params.toString()}`;
}

export const SIGN_IN_PATH = '/sign-in';
/** The sign-in page, coming back to `next` (a path on this site) afterwards. */
/** Where single sign-on starts, and where the OpenID provider sends people back. */
export const OIDC_SIGN_IN_PATH = '/sign-in/oidc';
export const OIDC_CALLBACK_PATH = '/sign-in/oidc/callback';
export const oidcSignInPath = (next: string) => `${OIDC_SIGN_IN_PATH}?next=${segment(next)}`;

export const signInPath = (next?: string) => (next ? `${SIGN_IN_PATH}?next=${segment(next)}` : SIGN_IN_PATH);

export const PREVIEW_PATH = '/preview';

/** Operators' endpoints: liveness, readiness, Prometheus metrics (each checks what it needs itself). */
export const HEALTHZ_PATH = '/healthz';
export const READYZ_PATH = '/readyz';
export const METRICS_PATH = '/metrics';
export const OPERATIONS_PATHS: readonly string[] = [HEALTHZ_PATH, READYZ_PATH, METRICS_PATH];
export interface PreviewLink {
  /** The store whose session it renders; omitted: the first. */
  store?: string;
  session?: SessionRef | null;
  /** Render as of this event (sequence number); null for the current state. */
  asOf?: number | null;
  template?: string;
  dialect?: TemplateDialect;
}

/** `/preview?app=…&user=…&session=…&event=…&template=…&dialect=…`, leaving out what is not set. */
export function previewHref({ store, session, asOf, template, dialect }: PreviewLink): string {
  const params = new URLSearchParams();
  if (session) {
    params.set('app', session.appName);
    params.set('user', session.userId);
    params.set('session', session.sessionId);
    if (asOf !== null && asOf !== undefined) params.set('event', String(asOf));
  }
  if (template) params.set('template', template);
  if (dialect && dialect !== 'python') params.set('dialect', dialect);
  const search = params.toString();
  const path = `${storeRoot(store)}${PREVIEW_PATH}`;
  return search ? `${path}?${search}` : path;
}

/** `/api/apps/{app}` (`/api/stores/{store}/apps/{app}`). */
export const appApiPath = (app: string, store?: string) => `/api${appPath(app, store)}`;
/** `/api/apps/{app}/users/{user}`. */
export const userApiPath = (app: string, user: string, store?: string) => `/api${userPath(app, user, store)}`;
/** The whole of an app-tier value, or the part of it at an RFC 6901 pointer: `{"value": ...}`. */
export const appStateValuePath = (app: string, key: string, pointer = '') =>
  `${appApiPath(app)}/state/value?${new URLSearchParams({ key, pointer }).toString()}`;
/** The same for a user-tier value. */
export const userStateValuePath = (app: string, user: string, key: string, pointer = '') =>
  `${userApiPath(app, user)}/state/value?${new URLSearchParams({ key, pointer }).toString()}`;
/** `/api/apps/{app}/users/{user}/sessions/{id}`. */
export const sessionApiPath = (ref: SessionRef, store?: string) => `/api${sessionPath(ref.appName, ref.userId, ref.sessionId, store)}`;

/** Where the console sends a message to the session's agent (lib/http/api/agent.ts). */
export const agentSendPath = (ref: SessionRef) => `${sessionApiPath(ref)}/agent/send`;
/** The session's send log (lib/agent-server/send-log.ts). */
export const agentSendsPath = (ref: SessionRef) => `${sessionApiPath(ref)}/agent/sends`;

/** Downloads of ADK session files (one session) and JSON Lines (a user's or an app's sessions). */
export const sessionExportPath = (app: string, user: string, session: string, store?: string) =>
  `${sessionApiPath({ appName: app, userId: user, sessionId: session }, store)}/export`;
export const userExportPath = (app: string, user: string, store?: string) => `${userApiPath(app, user, store)}/export`;
export const appExportPath = (app: string, store?: string) => `${appApiPath(app, store)}/export`;
