// What the door measures: every console page Next serves (by route template,
// kind and status) and its own early 503 when the database is away.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { metricsText } from '../observability/metrics';
import { setServicesForTests } from '../services';
import { installDoor } from './door';

/** The value of one series, 0 when absent. */
async function sample(series: string): Promise<number> {
  const line = (await metricsText()).body.split('\n').find((candidate) => candidate.startsWith(`${series} `));
  return line === undefined ? 0 : Number(line.slice(series.length + 1));
}

describe('the door’s metrics', () => {
  let server: Server;
  let url: string;
  const saved = { ...process.env };

  beforeAll(async () => {
    // Protected, over a database nobody answers for: a credential cannot be checked.
    Object.assign(process.env, {
      STATEHOUSE_AUTH: 'protected',
      DATABASE_URL: 'postgresql://h8:h8@127.0.0.1:1/h8_nowhere?connect_timeout=2',
    });
    setServicesForTests({});
    installDoor();
    server = createServer((request, response) => {
      request.resume();
      response.statusCode = request.url?.startsWith('/nowhere') ? 404 : 200;
      request.on('end', () => response.end('next answered'));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    process.env = saved;
    setServicesForTests({});
    await new Promise((resolve) => server.close(resolve));
  });

  it('times each page Next serves under its template, a client navigation apart, made-up paths as one series', async () => {
    const page =
      'statehouse_page_render_duration_seconds_count{route="/apps/:app/users/:user/sessions/:session",kind="document",status="200"}';
    const navigation = 'statehouse_page_render_duration_seconds_count{route="/apps/:app",kind="rsc",status="200"}';
    const missing = 'statehouse_page_render_duration_seconds_count{route="(not found)",kind="document",status="404"}';
    const before = [await sample(page), await sample(navigation), await sample(missing)];
    await fetch(`${url}/apps/a/users/u/sessions/s1`);
    await fetch(`${url}/apps/b/users/v/sessions/s2?event=3`);
    await fetch(`${url}/apps/a`, { headers: { rsc: '1' } });
    await fetch(`${url}/nowhere/x${Date.now()}`);
    await fetch(`${url}/_next/static/chunk.js`);
    await fetch(`${url}/favicon.ico`);
    expect([await sample(page), await sample(navigation), await sample(missing)]).toEqual([before[0]! + 2, before[1]! + 1, before[2]! + 1]);
    expect((await metricsText()).body).not.toContain('/_next');
  });

  it('counts its own 503 (a credential it cannot check with the database away) under cause database', async () => {
    const series = 'statehouse_http_unavailable_total{cause="database"}';
    const before = await sample(series);
    const response = await fetch(`${url}/api/apps`, {
      method: 'POST',
      // Shaped like a token, so only the database could say whose it is.
      headers: { authorization: `Bearer sht_${'a'.repeat(43)}`, 'content-type': 'application/json' },
      body: 'x'.repeat(2 * 1024 * 1024),
    });
    expect(response.status).toBe(503);
    expect(await sample(series)).toBe(before + 1);
  }, 60_000);
});
