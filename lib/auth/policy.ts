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
  // Clearing an app's or a user's data loses it and its history for good.
  { methods: ['DELETE'], path: new RegExp(`^/api/apps/${SEGMENT}(/users/${SEGMENT})?$`), role: 'admin' },
  { methods: ['POST', 'PUT', 'PATCH', 'DELETE'], path: /^\/api(\/.*)?$/, role: 'support' },
];

/** The role an API request needs (the path as the client sent it, percent-encoded). Unknown methods need admin. */
export function requiredRole(method: string, pathname: string): Role {
  const upper = method.toUpperCase();
  for (const rule of RULES) if (rule.methods.includes(upper) && rule.path.test(pathname)) return rule.role;
  return 'admin';
}
