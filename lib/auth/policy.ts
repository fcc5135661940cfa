import type { Role } from './roles';

/*
 * The role each API request needs, in one table, so that no route can be
 * added without a decision here. Reads need viewer; writes need support,
 * except the ones that change what every user sees or cannot be undone.
 */

interface Rule {
  methods: readonly string[];
  path: RegExp;
  role: Role;
}

const SEGMENT = '[^/]+';
const RULES: readonly Rule[] = [
  { methods: ['GET', 'HEAD'], path: /^\/api(\/.*)?$/, role: 'viewer' },
  // Template rendering reads state; POST only because the template is a body.
  { methods: ['POST'], path: /^\/api\/render$/, role: 'viewer' },
  // App state is shared by every user of the app.
  { methods: ['PUT', 'PATCH', 'POST', 'DELETE'], path: new RegExp(`^/api/apps/${SEGMENT}/state(/.*)?$`), role: 'admin' },
  // Deleting a session loses its events for good.
  { methods: ['DELETE'], path: new RegExp(`^/api/apps/${SEGMENT}/users/${SEGMENT}/sessions/${SEGMENT}$`), role: 'admin' },
  // Retention deletes sessions and events for good (a dry run too: it answers what an admin may delete).
  { methods: ['POST'], path: new RegExp(`^/api/apps/${SEGMENT}(/users/${SEGMENT}/sessions/${SEGMENT})?/prune$`), role: 'admin' },
  // Clearing an app's or a user's data loses it and its history for good.
  { methods: ['DELETE'], path: new RegExp(`^/api/apps/${SEGMENT}(/users/${SEGMENT})?$`), role: 'admin' },
  // Marking a test kit's namespace makes it clearable.
  { methods: ['POST', 'DELETE'], path: /^\/api\/test-namespaces$/, role: 'admin' },
  { methods: ['POST', 'PUT', 'PATCH', 'DELETE'], path: /^\/api(\/.*)?$/, role: 'support' },
];

/** The role an API request needs (the path as the client sent it, percent-encoded). Unknown methods need admin. */
export function requiredRole(method: string, pathname: string): Role {
  const upper = method.toUpperCase();
  for (const rule of RULES) if (rule.methods.includes(upper) && rule.path.test(pathname)) return rule.role;
  return 'admin';
}

/** Whether an API request writes: everything a viewer may not send (read-only mode refuses these). */
export function isWriteRequest(method: string, pathname: string): boolean {
  return requiredRole(method, pathname) !== 'viewer';
}

/*
 * What a write carries matters as well as where it goes: a state delta with
 * an `app:` key changes what every user of the app sees, exactly as an app
 * state edit does, so it needs the same role whichever door it comes
 * through (an appended event, a PATCH, a new session's state or events, the
 * dashboard's event form).
 */
const APP_KEY_PREFIX = 'app:';
const APP_STATE_ROLE: Role = 'admin';
const STATE_WRITE_ROLE: Role = 'support';

/** The role a write of these state keys (prefixed, as in a delta) needs. */
export function roleForStateKeys(keys: Iterable<string>): Role {
  for (const key of keys) if (key.startsWith(APP_KEY_PREFIX)) return APP_STATE_ROLE;
  return STATE_WRITE_ROLE;
}

interface StateWrite {
  /** Initial state of a new session, or a PATCH's delta. */
  state?: Record<string, unknown> | null;
  /** Events appended by hand, each maybe with a state delta. */
  events?: readonly { actions?: { stateDelta?: Record<string, unknown> | null } | null }[];
}

/** The role a write needs for the state it carries: its state's keys and every event's delta keys. */
export function roleForStateWrite(write: StateWrite): Role {
  const keys: string[] = Object.keys(write.state ?? {});
  for (const event of write.events ?? []) keys.push(...Object.keys(event.actions?.stateDelta ?? {}));
  return roleForStateKeys(keys);
}
