/** Dashboard URLs; ids are path segments, so they are always encoded. */
const segment = encodeURIComponent;

export const APPS_PATH = '/apps';
export const appPath = (app: string) => `${APPS_PATH}/${segment(app)}`;
export const userPath = (app: string, user: string) => `${appPath(app)}/users/${segment(user)}`;
export const sessionPath = (app: string, user: string, session: string) =>
  `${userPath(app, user)}/sessions/${segment(session)}`;

export const ACCOUNTS_PATH = '/admin/accounts';
