// The process's configuration: every environment variable Statehouse reads,
// parsed by one schema (.env.example documents them). Code reads env(), never
// process.env. The parse is kept until a variable changes, so a server parses
// once while tests may still set a variable between calls and see it apply.
import { z } from 'zod';

/** Unset, empty and blank all mean "not set". */
const text = z
  .string()
  .optional()
  .transform((value) => value?.trim() || undefined);

const warned = new Set<string>();

/** A whole number within bounds, else not set (the caller's default) with a warning when `warn`; never a failed start. */
function wholeNumber(name: string, min: number, warn: boolean) {
  return text.transform((value) => {
    if (value === undefined) return undefined;
    const number = Number(value);
    if (Number.isSafeInteger(number) && number >= min) return number;
    if (warn && !warned.has(`${name}=${value}`)) {
      warned.add(`${name}=${value}`);
      console.warn(`${name}=${JSON.stringify(value)} is not a whole number of at least ${min}; using the default.`);
    }
    return undefined;
  });
}

const TRUE = new Set(['1', 'true', 'yes', 'on']);
const FALSE = new Set(['0', 'false', 'no', 'off']);

/** A switch: 1/true/yes/on, or 0/false/no/off (unset = off). Anything else is on, with a warning: a typo must not open writes. */
function flag(name: string) {
  return text.transform((value) => {
    if (value === undefined) return false;
    const lower = value.toLowerCase();
    if (TRUE.has(lower)) return true;
    if (!FALSE.has(lower) && !warned.has(`${name}=${value}`)) {
      warned.add(`${name}=${value}`);
      console.warn(`${name}=${JSON.stringify(value)} is neither 1/true/yes/on nor 0/false/no/off; taking it as on.`);
    }
    return !FALSE.has(lower);
  });
}

const schema = z.object({
  /** The database: a `file:` SQLite path or a `postgresql://` URL; unset means the embedded SQLite file. */
  DATABASE_URL: text,
  /** `local` or `protected`; checked with the host and database by lib/auth/config.ts. */
  STATEHOUSE_AUTH: text,
  /** The address the server listens on (set by `npm start`/`npm run dev` from HOST). */
  STATEHOUSE_HOST: text,
  /** A reverse proxy's header naming the signed-in account (single sign-on); off when unset. */
  STATEHOUSE_TRUSTED_HEADER: text,
  /** Reverse proxies (addresses, CIDR ranges; comma- or space-separated) whose X-Forwarded-For names the client; none when unset. */
  STATEHOUSE_TRUSTED_PROXIES: text,
  /** `1`: answers the server's door gave itself (the /api fast path, lib/http/api-door.ts) carry `X-Statehouse-Door: api`; for tests. */
  STATEHOUSE_DOOR_HEADER: flag('STATEHOUSE_DOOR_HEADER'),
  /** `1`: no write door is open (API writes and server actions answer 403) and the console offers no write control. */
  STATEHOUSE_READ_ONLY: flag('STATEHOUSE_READ_ONLY'),
  /** `1`: test kits may not mark or clear namespaces here (a production deployment): DELETE of apps and users answers 403. */
  STATEHOUSE_NO_TEST_NAMESPACES: flag('STATEHOUSE_NO_TEST_NAMESPACES'),
  /** Single sign-on: the OpenID provider's issuer URL (https://, or http:// on this machine); off when unset. */
  STATEHOUSE_OIDC_ISSUER: text,
  /** The client id registered at the provider. */
  STATEHOUSE_OIDC_CLIENT_ID: text,
  /** The client secret (sent as client_secret_post); unset for a public client, which PKCE protects. */
  STATEHOUSE_OIDC_CLIENT_SECRET: text,
  /** The redirect URI registered at the provider; default `<the address used>/sign-in/oidc/callback`. */
  STATEHOUSE_OIDC_REDIRECT_URL: text,
  /** Scopes to ask for (default `openid profile email groups`). */
  STATEHOUSE_OIDC_SCOPES: text,
  /** The claim with the person's groups (default `groups`). */
  STATEHOUSE_OIDC_ROLE_CLAIM: text,
  /** The claim naming the account (default `preferred_username`). */
  STATEHOUSE_OIDC_NAME_CLAIM: text,
  /** Group-to-role mapping, `group=role` pairs comma-separated; a person without a listed group gets no access. */
  STATEHOUSE_OIDC_ROLES: text,
  /** What the sign-in button names the provider (default `single sign-on`). */
  STATEHOUSE_OIDC_LABEL: text,
  /** Hours a sign-in lasts; lib/auth/config.ts checks the range. */
  STATEHOUSE_SESSION_HOURS: text,
  /** Request body limit in bytes (default 2 MiB). */
  STATEHOUSE_MAX_BODY_BYTES: wholeNumber('STATEHOUSE_MAX_BODY_BYTES', 1, true),
  /** How long a SQLite write waits for another process's lock, in ms (default 5000). */
  STATEHOUSE_SQLITE_BUSY_TIMEOUT_MS: wholeNumber('STATEHOUSE_SQLITE_BUSY_TIMEOUT_MS', 0, false),
  /** Origins allowed to write through the API besides the server's own: comma-separated, or `*`. */
  STATEHOUSE_ALLOWED_ORIGINS: text.transform((value) =>
    (value ?? '')
      .split(',')
      .map((origin) => origin.trim())
      .filter(Boolean),
  ),
  /** How long an idle kept-alive connection stays open, in ms (default 65000: longer than a load balancer's, lib/http/keep-alive.ts). */
  KEEP_ALIVE_TIMEOUT: wholeNumber('KEEP_ALIVE_TIMEOUT', 1, true),
  /** How long /readyz waits for each database to answer, in ms (default 2000). */
  STATEHOUSE_READY_TIMEOUT_MS: wholeNumber('STATEHOUSE_READY_TIMEOUT_MS', 1, true),
  /** The bearer token that reads /metrics; /metrics answers 404 when neither this nor STATEHOUSE_METRICS_LISTEN is set. */
  STATEHOUSE_METRICS_TOKEN: text,
  /** A separate `[host:]port` serving /metrics without a token (for a scraper on a private network). */
  STATEHOUSE_METRICS_LISTEN: text,
  /** OpenTelemetry: where spans are sent over OTLP/HTTP (the base URL; /v1/traces is added). No tracing when unset. */
  OTEL_EXPORTER_OTLP_ENDPOINT: text,
  /** The service name on exported spans (default statehouse). */
  OTEL_SERVICE_NAME: text,
  /** An agent's ADK session database(s) to serve instead of Statehouse's own sessions: `[id=]location`, space-separated. */
  STATEHOUSE_STORE: text,
  /** The agents' ADK API servers the console may send messages through: a JSON list (lib/agent-server/config.ts). */
  STATEHOUSE_AGENT_SERVERS: text,
  /** Set by `npm run demo`: the app its example agent writes live, which the apps page points newcomers at. */
  STATEHOUSE_DEMO_LIVE_APP: text,
  /** The project root (prisma/ and node_modules); found from this module's location when unset. */
  STATEHOUSE_ROOT: text,
  /** The PostgreSQL server tests and migration diffs use. */
  TEST_DATABASE_URL: text,
});

export type Env = z.infer<typeof schema>;

const NAMES = Object.keys(schema.shape) as (keyof Env)[];

/** A wrapped process.env and the writes made through it. */
interface EnvWatch {
  proxy: NodeJS.ProcessEnv;
  writes: number;
}

let parsed: { raw: (string | undefined)[]; env: Env; watch: EnvWatch | undefined; writes: number; checkedAt: number } | undefined;

/*
 * Comparing every variable with the last parse costs about 7 µs (each read
 * of process.env asks the C library), and an API request asks for the
 * configuration four or five times. The console's server process therefore
 * wraps process.env in a proxy that counts writes through it
 * (watchEnvironmentWrites, from instrumentation.ts), and env() compares the
 * variables again only after a write, after process.env was replaced, or a
 * second after the last comparison (a write through a reference taken before
 * the wrapping is not counted, so it takes effect within a second). Only the
 * console's own process is wrapped: lib/agent-service runs inside an agent's
 * process, whose process.env is not Statehouse's to replace. The wrapping is
 * kept on globalThis: Next bundles this module more than once per process,
 * and each copy must find the one proxy rather than wrap the other's.
 */
const RECHECK_MS = 1_000;
const holder = globalThis as { statehouseEnvWatch?: EnvWatch };

function currentWatch(): EnvWatch | undefined {
  const watch = holder.statehouseEnvWatch;
  return watch && process.env === watch.proxy ? watch : undefined;
}

/** Wraps process.env so that env() needs to compare the variables only after a write. For the console's server process only. */
export function watchEnvironmentWrites(): void {
  if (currentWatch()) return;
  const watch: EnvWatch = { proxy: process.env, writes: 0 };
  const proxy = new Proxy(process.env, {
    set(target, name, value) {
      watch.writes++;
      return Reflect.set(target, name, value);
    },
    deleteProperty(target, name) {
      watch.writes++;
      return Reflect.deleteProperty(target, name);
    },
    defineProperty(target, name, descriptor) {
      watch.writes++;
      return Reflect.defineProperty(target, name, descriptor);
    },
  });
  process.env = proxy;
  if (process.env !== proxy) return;
  watch.proxy = proxy;
  holder.statehouseEnvWatch = watch;
}

/**
 * The configuration, parsed from process.env (again only when a variable
 * changed since the last parse). The same object until then, so what is
 * derived from it can be kept by identity (config.ts).
 */
export function env(): Env {
  const now = performance.now();
  const watch = parsed?.watch;
  if (parsed && watch && process.env === watch.proxy && watch.writes === parsed.writes && now - parsed.checkedAt < RECHECK_MS) {
    return parsed.env;
  }
  const current = currentWatch();
  const writes = current?.writes ?? 0;
  const raw = NAMES.map((name) => process.env[name]);
  if (parsed?.raw.every((value, index) => value === raw[index])) {
    Object.assign(parsed, { watch: current, writes, checkedAt: now });
    return parsed.env;
  }
  const values = Object.fromEntries(NAMES.map((name, index) => [name, raw[index]]));
  parsed = { raw, env: schema.parse(values), watch: current, writes, checkedAt: now };
  return parsed.env;
}
