// The load: N clients, each appending events over HTTP in a loop until the
// deadline, to sessions shared by a few users (several clients per session,
// so unguarded appends race; every client also writes user: and app: keys
// shared with the others). Every acknowledged append is recorded for
// verification.

export interface SessionTarget {
  userId: string;
  sessionId: string;
}

export interface Ack {
  client: number;
  n: number;
  eventId: string;
  session: SessionTarget;
}

export interface LoadOptions {
  baseUrl: string;
  token: string;
  appName: string;
  clients: number;
  durationMs: number;
  sessions: SessionTarget[];
}

export interface LoadResult {
  acks: Ack[];
  /** Failed attempts by reason ("503 Database unavailable: ...", "network: ECONNREFUSED"). */
  failures: Map<string, number>;
  /** Milliseconds, of acknowledged appends. */
  latencies: number[];
  elapsedMs: number;
}

/** The session each client appends to: clients spread evenly over the sessions. */
export function sessionOfClient(sessions: SessionTarget[], client: number): SessionTarget {
  const session = sessions[client % sessions.length];
  if (!session) throw new Error('no sessions to append to');
  return session;
}

/** The event a client sends as its n-th: its own session and user keys, and keys other clients write too. */
export function eventBody(appName: string, client: number, n: number) {
  const id = `${appName}-c${client}-${n}`;
  return {
    id,
    author: `client-${client}`,
    invocation_id: `c${client}`,
    content: { role: 'model', parts: [{ text: `event ${n} of client ${client}` }] },
    actions: {
      state_delta: {
        [`c${client}`]: n,
        [`user:c${client}`]: n,
        'user:last_writer': id,
        // Every client's tenth event also writes one app key: a hot row, but not on every append.
        ...(n % 10 === 0 ? { 'app:last_writer': id } : {}),
        'temp:scratch': n,
      },
    },
  };
}

function reasonOf(error: unknown): string {
  const cause = error instanceof Error ? (error.cause as { code?: string } | undefined) : undefined;
  return `network: ${cause?.code ?? (error instanceof Error ? error.message : String(error))}`;
}

export async function runLoad(options: LoadOptions): Promise<LoadResult> {
  const result: LoadResult = { acks: [], failures: new Map(), latencies: [], elapsedMs: 0 };
  const fail = (reason: string) => result.failures.set(reason, (result.failures.get(reason) ?? 0) + 1);
  const started = performance.now();
  const deadline = started + options.durationMs;
  const headers = { 'content-type': 'application/json', authorization: `Bearer ${options.token}` };

  async function client(index: number): Promise<void> {
    const session = sessionOfClient(options.sessions, index);
    const url = `${options.baseUrl}/api/apps/${encodeURIComponent(options.appName)}/users/${encodeURIComponent(session.userId)}/sessions/${encodeURIComponent(session.sessionId)}/events`;
    for (let n = 1; performance.now() < deadline; n += 1) {
      const body = eventBody(options.appName, index, n);
      const sent = performance.now();
      try {
        const response = await fetch(url, { method: 'POST', headers, body: JSON.stringify(body) });
        const text = await response.text();
        if (response.status === 200) {
          result.latencies.push(performance.now() - sent);
          result.acks.push({ client: index, n, eventId: body.id, session });
        } else {
          let detail = text;
          try {
            detail = (JSON.parse(text) as { detail?: string }).detail ?? text;
          } catch {
            // not JSON: keep the text
          }
          fail(`${response.status} ${detail.slice(0, 100)}`);
        }
      } catch (error) {
        fail(reasonOf(error));
        // The server is down (the kill test): do not spin.
        await new Promise((done) => setTimeout(done, 25));
      }
    }
  }

  await Promise.all(Array.from({ length: options.clients }, (_, index) => client(index)));
  result.elapsedMs = performance.now() - started;
  return result;
}

/** The value at quantile q (0..1) of unsorted numbers; NaN for none. */
export function percentile(values: number[], q: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN;
}
