// Liveness and readiness for load balancers and orchestrators. Neither needs
// a sign-in, so neither says more than up or down and the databases' names.
import { env } from '../env';
import { checkReadiness } from '../services';
import { json } from './respond';

const NO_STORE = { 'Cache-Control': 'no-store' };
const READY_TIMEOUT_MS = 2_000;

/** GET /healthz: the process answers; no database is touched. */
export async function healthz(): Promise<Response> {
  return json({ status: 'ok' }, 200, NO_STORE);
}

/** GET /readyz: 200 when every database answered in time, else 503 naming those that did not. */
export async function readyz(): Promise<Response> {
  const checks = await checkReadiness(env().STATEHOUSE_READY_TIMEOUT_MS ?? READY_TIMEOUT_MS);
  const failed = Object.keys(checks).filter((name) => !checks[name]);
  const states = Object.fromEntries(Object.entries(checks).map(([name, up]) => [name, up ? 'up' : 'down']));
  if (failed.length === 0) return json({ status: 'ready', checks: states }, 200, NO_STORE);
  return json({ status: 'unavailable', detail: `Not ready: ${failed.join(', ')} did not answer.`, failed, checks: states }, 503, {
    ...NO_STORE,
    'Retry-After': '5',
  });
}
