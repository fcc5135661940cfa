// One test's view of Statehouse: its namespace (marked on the server as the
// kit's own before anything is written into it), what it seeded, and the
// clean-up that clears that namespace (with a reason, recorded in the
// operations log under the test's name) and puts back the shared app keys it
// wrote itself (only while they still hold what it wrote).
import { StatehouseError, type StatehouseClient } from './client.js';
import { bindClient } from './handles.js';
import { actorOf } from './namespace.js';
import type { JsonValue, NewEvent, SessionJson, SessionRef, StateRecord, TestRun } from './types.js';

/**
 * How a test is kept apart from the others:
 * - `app` (the default): every test gets an app of its own (`statehouse.appName`);
 *   clean-up removes the whole app. For agents whose app name can be set per test.
 * - `user`: tests share one app (the agent's fixed name, `statehouseApp`) and each
 *   gets user ids of its own (`statehouse.userId('ada')`); clean-up removes those
 *   users, and app state the test changed is restored.
 */
export type NamespaceMode = 'app' | 'user';

export interface SeedRequest {
  /** Default: the test's app (`statehouse.appName`). Another app is shared: the app: keys seeded there are put back after the test. */
  app?: string;
  /** A user of the test's namespace (passed through `statehouse.userId`); default `user`. */
  user?: string;
  /** The session id; generated when absent. `false` seeds only app: and user: keys, without a session. */
  session?: string | false;
  /** State as the agent sees it: `app:` and `user:` keys go to the shared tiers, the rest to the session. */
  state?: StateRecord;
  /** Events appended to the new session in order, in one transaction with it. */
  events?: NewEvent[];
}

/** A session the test seeded (or found): where it lives and its console page. */
export interface SeededSession extends SessionRef {
  /** The console's page for it, relative to the base URL. */
  path: string;
  /** The session as created. */
  created: SessionJson;
}

export interface StatehouseOptions {
  client: StatehouseClient;
  mode: NamespaceMode;
  namespace: string;
  /** In `user` mode, the shared app; in `app` mode, ignored. */
  sharedApp?: string;
  titlePath: readonly string[];
  /** The run marking the namespaces (its sweep finds them if it is killed). */
  run: TestRun;
}

const CLEAN_UP_REASON = 'test clean-up: the namespace the test created';

const TEMP_PREFIX = 'temp:';
const APP_PREFIX = 'app:';
const USER_PREFIX = 'user:';

function consolePath(ref: SessionRef): string {
  return `/apps/${encodeURIComponent(ref.appName)}/users/${encodeURIComponent(ref.userId)}/sessions/${encodeURIComponent(ref.sessionId)}`;
}

function split(state: StateRecord): { app: StateRecord; user: StateRecord; session: StateRecord } {
  const tiers = { app: {} as StateRecord, user: {} as StateRecord, session: {} as StateRecord };
  for (const [key, value] of Object.entries(state)) {
    if (key.startsWith(TEMP_PREFIX)) throw new Error(`seed: ${key} is a temp: key, which Statehouse never stores.`);
    if (key.startsWith(APP_PREFIX)) tiers.app[key.slice(APP_PREFIX.length)] = value;
    else if (key.startsWith(USER_PREFIX)) tiers.user[key.slice(USER_PREFIX.length)] = value;
    else tiers.session[key] = value;
  }
  return tiers;
}

export class Statehouse {
  readonly client: StatehouseClient;
  readonly mode: NamespaceMode;
  /** Unique to this test: the app name (`app` mode) or the user ids' suffix (`user` mode). */
  readonly namespace: string;
  /** The actor the test's audited edits name. */
  readonly actor: string;
  private readonly sharedApp: string | undefined;
  private readonly run: TestRun;
  /** Marks of the namespaces this test writes into (its app, or its users' suffix in each shared app), by app. */
  private readonly marks = new Map<string, Promise<void>>();
  /** The user ids handed out in shared apps, by app: removed after the test. */
  private readonly sharedUsers = new Map<string, Set<string>>();
  /** The app: keys this test wrote in shared apps: what each held before its first write, and what the test wrote last. */
  private readonly appWrites = new Map<string, Map<string, { before: JsonValue | undefined; written: JsonValue }>>();
  /** What clean-up left alone, and why (for the report). */
  readonly cleanUpNotes: string[] = [];
  private readonly sessions: SeededSession[] = [];
  /** Every session the test seeded or asked for, for the failure attachments. */
  private readonly named = new Map<string, SessionRef>();

  constructor(options: StatehouseOptions) {
    this.client = options.client;
    this.mode = options.mode;
    this.namespace = options.namespace;
    this.sharedApp = options.sharedApp;
    this.actor = actorOf(options.titlePath);
    this.run = options.run;
    if (this.mode === 'user' && !this.sharedApp) {
      throw new Error("statehouse: namespace 'user' needs the app the tests share: test.use({ statehouseApp: 'my-agent' }).");
    }
  }

  /** Marks the test's own namespace as the kit's (before the test writes anything): only marked data can be cleared. */
  async open(): Promise<void> {
    this.markIn(this.appName);
    await this.marked();
  }

  private get userSuffix(): string {
    return `@${this.namespace}`;
  }

  /** Starts marking the test's namespace in `appName` (once): its own app, or its users in a shared one. */
  private markIn(appName: string): void {
    if (this.marks.has(appName)) return;
    const namespace = this.ownsApp(appName) ? { appName } : { appName, userSuffix: this.userSuffix };
    const marking = this.client.markNamespace(namespace, this.run, this.actor);
    // Awaited by marked(); never an unhandled rejection meanwhile.
    marking.catch(() => undefined);
    this.marks.set(appName, marking);
  }

  private async marked(): Promise<void> {
    await Promise.all(this.marks.values());
  }

  /** The app this test's agent should use: its own in `app` mode, the shared one in `user` mode. */
  get appName(): string {
    return this.mode === 'app' ? this.namespace : (this.sharedApp as string);
  }

  /**
   * The id of a user of this test in an app (default: the test's app): `name`
   * in an app of its own, `name@<namespace>` in a shared one, where it is
   * removed after the test.
   */
  userId(name = 'user', app = this.appName): string {
    if (this.ownsApp(app)) return name;
    this.markIn(app);
    const id = `${name}${this.userSuffix}`;
    let users = this.sharedUsers.get(app);
    if (!users) this.sharedUsers.set(app, (users = new Set()));
    users.add(id);
    return id;
  }

  private ownsApp(appName: string): boolean {
    return this.mode === 'app' && appName === this.namespace;
  }

  /** The sessions seeded so far, in order. */
  get seeded(): readonly SeededSession[] {
    return this.sessions;
  }

  /** Every session the test seeded or named (session(), latestSession()). */
  get known(): readonly SessionRef[] {
    return [...this.named.values()];
  }

  private remember<T extends SessionRef>(handle: T): T {
    this.named.set(JSON.stringify([handle.appName, handle.userId, handle.sessionId]), handle);
    return bindClient(handle, this.client);
  }

  /** A handle for a session the agent created (by id), for the matchers and page objects. */
  session(sessionId: string, user = 'user', app?: string): SessionRef & { path: string } {
    const appName = app ?? this.appName;
    const ref = { appName, userId: this.userId(user, appName), sessionId };
    return this.remember({ ...ref, path: consolePath(ref) });
  }

  /** The latest session of one of the test's users (the agent created it), or null. */
  async latestSession(user = 'user', app?: string): Promise<(SessionRef & { path: string }) | null> {
    const appName = app ?? this.appName;
    const sessions = await this.client.listSessions(appName, this.userId(user, appName));
    const latest = sessions.sort((a, b) => b.lastUpdateTime - a.lastUpdateTime)[0];
    return latest ? this.session(latest.id, user, app) : null;
  }

  /** @deprecated Clean-up no longer snapshots shared apps (it put back other people's changes); it undoes only the keys the test seeded. */
  async touchApp(_appName: string): Promise<void> {}

  /** Before the test writes app: keys in a shared app: what each held, the first time this test writes it. */
  private async noteAppWrites(appName: string, values: StateRecord): Promise<void> {
    if (this.ownsApp(appName) || Object.keys(values).length === 0) return;
    let writes = this.appWrites.get(appName);
    if (!writes) this.appWrites.set(appName, (writes = new Map<string, { before: JsonValue | undefined; written: JsonValue }>()));
    const fresh = Object.keys(values).filter((key) => !writes.has(key));
    const now = fresh.length > 0 ? await this.client.appState(appName) : {};
    for (const [key, value] of Object.entries(values)) {
      const earlier = writes.get(key);
      writes.set(key, { before: earlier ? earlier.before : Object.hasOwn(now, key) ? now[key] : undefined, written: value });
    }
  }

  seed(request: SeedRequest & { session: false }): Promise<null>;
  seed(request?: SeedRequest): Promise<SeededSession>;
  async seed(request: SeedRequest = {}): Promise<SeededSession | null> {
    const appName = request.app ?? this.appName;
    const userId = this.userId(request.user ?? 'user', appName);
    const tiers = split(request.state ?? {});
    await this.marked();
    await this.noteAppWrites(appName, tiers.app);
    if (request.session === false) {
      if (Object.keys(tiers.session).length > 0 || request.events?.length) {
        throw new Error('seed: session keys and events need a session (leave out `session: false`).');
      }
      const reason = 'seeded by a test';
      if (Object.keys(tiers.app).length > 0) await this.client.editAppState(appName, { set: tiers.app, reason, actor: this.actor });
      if (Object.keys(tiers.user).length > 0)
        await this.client.editUserState(appName, userId, { set: tiers.user, reason, actor: this.actor });
      return null;
    }
    const created = await this.client.createSession({ appName, userId, sessionId: request.session }, request.state, request.events);
    const ref = { appName, userId, sessionId: created.id };
    const seeded = this.remember({ ...ref, path: consolePath(ref), created });
    this.sessions.push(seeded);
    return seeded;
  }

  /**
   * Removes what the test created: its app (`app` mode) or its users
   * (sessions, user state, their history), each clear recorded in the
   * operations log under the test's name, then drops its user namespaces'
   * marks; and puts back each app: key it seeded in a shared app, through an
   * audited edit naming the test, but only if the key still holds what the
   * test wrote (compare-and-set): a key someone changed since is left as it
   * is, and `cleanUpNotes` says so. Errors are collected and thrown together
   * after every step has been tried.
   */
  async cleanUp(): Promise<void> {
    const failures: unknown[] = [];
    const attempt = async (step: () => Promise<unknown>) => {
      try {
        await step();
      } catch (error) {
        failures.push(error);
      }
    };
    const clear = { reason: CLEAN_UP_REASON, actor: this.actor };
    await attempt(() => this.marked());
    if (this.mode === 'app') await attempt(() => this.client.clearApp(this.namespace, clear));
    for (const [appName, users] of this.sharedUsers) {
      for (const userId of users) await attempt(() => this.client.clearUser(appName, userId, clear));
    }
    for (const appName of this.marks.keys()) {
      if (!this.ownsApp(appName)) await attempt(() => this.client.releaseNamespace({ appName, userSuffix: this.userSuffix }));
    }
    for (const [appName, writes] of this.appWrites) {
      for (const [key, { before, written }] of writes) await attempt(() => this.putBack(appName, key, before, written));
    }
    if (failures.length === 1) throw failures[0];
    if (failures.length > 1) throw new AggregateError(failures, `statehouse clean-up: ${failures.length} steps failed`);
  }

  /** One seeded app: key back to what it held before the test, if it still holds what the test wrote. */
  private async putBack(appName: string, key: string, before: JsonValue | undefined, written: JsonValue): Promise<void> {
    try {
      await this.client.editAppState(appName, {
        ...(before === undefined ? { remove: [key] } : { set: { [key]: before } }),
        expect: { [key]: written },
        reason: 'put back after the test (it still held what the test wrote)',
        actor: this.actor,
      });
    } catch (error) {
      if (!(error instanceof StatehouseError) || error.status !== 409) throw error;
      this.cleanUpNotes.push(`app:${key} of ${appName} was left as it is: it changed after the test wrote it (${error.detail}).`);
    }
  }
}
