/** What an account may do; each role includes the ones before it. */
export const ROLES = ['viewer', 'support', 'admin'] as const;
export type Role = (typeof ROLES)[number];

export function isRole(value: unknown): value is Role {
  return typeof value === 'string' && (ROLES as readonly string[]).includes(value);
}

/** Whether `actual` includes everything `required` may do. */
export function hasRole(actual: Role, required: Role): boolean {
  return ROLES.indexOf(actual) >= ROLES.indexOf(required);
}

/** What each role adds, for messages and the accounts page. */
export const ROLE_DESCRIPTIONS: Record<Role, string> = {
  viewer: 'read everything',
  support: 'read everything, edit user state and append events',
  admin: 'everything, including app state, deleting sessions and managing accounts',
};
