// Which agent server (an agent's ADK API server: `adk api_server`) the
// console may call for an app of a store. Only an administrator sets these
// (STATEHOUSE_AGENT_SERVERS, .env.example); nothing a request carries can
// add a server or change where one points.
import { z } from 'zod';

/** Any store, or any app, when an entry leaves it out. */
export const ANY = '*';

/** The longest an agent server may take to start answering, or between two events, unless its entry says otherwise. */
export const DEFAULT_TIMEOUT_SECONDS = 60;

export interface AgentServer {
  /** `store/app` as configured (`*` for any): names the server in messages and in the send log. */
  id: string;
  store: string;
  app: string;
  /** The base URL: `/run_sse` is added. */
  url: string;
  /** Sent with every request, e.g. `Authorization: Bearer ...`; never shown or logged. */
  header?: { name: string; value: string };
  timeoutMs: number;
}

export interface AgentServerConfig {
  servers: AgentServer[];
  /** Why the configuration was refused (then no server is configured), for administrators to see. */
  problem: string | null;
}

// An HTTP header name (RFC 9110 token).
const HEADER_NAME = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

const entrySchema = z
  .object({
    app: z.string().trim().min(1, 'app: name an app, or * for every app'),
    store: z.string().trim().min(1).optional(),
    url: z
      .string()
      .trim()
      .refine((value) => URL.canParse(value), 'url: not a URL')
      .refine((value) => /^https?:$/.test(new URL(value).protocol), 'url: only http:// and https:// are supported')
      .refine((value) => {
        const { username, password } = new URL(value);
        return !username && !password;
      }, 'url: put credentials in "header", not in the URL (the URL is shown and logged)'),
    header: z
      .object({
        name: z.string().regex(HEADER_NAME, 'header.name: not a header name'),
        // No line breaks: a value must not start another header.
        value: z.string().regex(/^[^\r\n]*$/, 'header.value: one line'),
      })
      .strict()
      .optional(),
    timeoutSeconds: z.number().positive().max(3600).optional(),
  })
  .strict();

const configSchema = z.array(entrySchema);

/** Parses STATEHOUSE_AGENT_SERVERS: a JSON array of `{"app", "store"?, "url", "header"?: {"name", "value"}, "timeoutSeconds"?}`. */
export function parseAgentServers(raw: string | undefined): AgentServerConfig {
  if (!raw) return { servers: [], problem: null };
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch {
    return { servers: [], problem: 'STATEHOUSE_AGENT_SERVERS is not JSON (a list of {"app", "url"} objects).' };
  }
  const parsed = configSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue && issue.path.length > 0 && typeof issue.path[0] === 'number' ? ` (entry ${issue.path[0] + 1})` : '';
    return { servers: [], problem: `STATEHOUSE_AGENT_SERVERS${where}: ${issue?.message ?? 'invalid'}` };
  }
  const servers = parsed.data.map(({ app, store = ANY, url, header, timeoutSeconds = DEFAULT_TIMEOUT_SECONDS }) => ({
    id: `${store}/${app}`,
    store,
    app,
    url: url.replace(/\/+$/, ''),
    ...(header ? { header } : {}),
    timeoutMs: Math.round(timeoutSeconds * 1000),
  }));
  const ids = new Set<string>();
  for (const { id } of servers) {
    if (ids.has(id)) return { servers: [], problem: `STATEHOUSE_AGENT_SERVERS names ${id} twice.` };
    ids.add(id);
  }
  return { servers, problem: null };
}

/** The server for an app of a store: an entry naming both first, then the app alone, then the store alone, then neither. */
export function agentServerFor(servers: readonly AgentServer[], storeId: string, appName: string): AgentServer | undefined {
  const rank = (server: AgentServer) => (server.store === storeId ? 0 : 2) + (server.app === appName ? 0 : 1);
  return servers
    .filter((server) => (server.store === ANY || server.store === storeId) && (server.app === ANY || server.app === appName))
    .sort((a, b) => rank(a) - rank(b))[0];
}
