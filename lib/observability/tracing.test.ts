// Traces exported over OTLP/HTTP to a receiver of the test's own: a request
// through the real route and the configured services gives one trace with
// the request's span, the store call inside it and, on PostgreSQL, the
// statements it ran. Without an endpoint nothing is registered.
import { trace } from '@opentelemetry/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getAccountStore, setServicesForTests } from '@/lib/services';
import { createMigratedDatabase, testProviders, type ScratchDatabase } from '@/lib/testing/databases';
import { call } from '@/lib/testing/http';
import { startOtlpReceiver, type OtlpReceiver } from '@/lib/testing/otlp-receiver';
import * as sessions from '@/app/api/apps/[app]/users/[user]/sessions/route';
import { startTracing } from './tracing-sdk';

const provider = (await testProviders()).includes('postgresql') ? 'postgresql' : 'sqlite';
const saved = { ...process.env };

describe('without OTEL_EXPORTER_OTLP_ENDPOINT', () => {
  it('registers nothing', () => {
    delete process.env.OTEL_EXPORTER_OTLP_ENDPOINT;
    expect(startTracing()).toBeUndefined();
    expect(trace.getTracer('statehouse').startSpan('probe').isRecording()).toBe(false);
  });
});

describe(`traces on ${provider}`, () => {
  let receiver: OtlpReceiver;
  let database: ScratchDatabase;
  let bearer: string;
  let shutdown: () => Promise<void>;

  beforeAll(async () => {
    receiver = await startOtlpReceiver();
    database = await createMigratedDatabase(provider, 'traces');
    Object.assign(process.env, {
      OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
      OTEL_SERVICE_NAME: 'statehouse-test',
      DATABASE_URL: database.url,
      STATEHOUSE_AUTH: 'protected',
    });
    const tracerProvider = startTracing();
    if (!tracerProvider) throw new Error('tracing did not start');
    shutdown = () => tracerProvider.shutdown();
    setServicesForTests({});
    const accounts = await getAccountStore();
    await accounts.createAccount({ name: 'ops', password: 'a password long enough', role: 'admin' });
    bearer = `Bearer ${(await accounts.createToken('ops', 'test')).secret}`;
  });
  afterAll(async () => {
    await shutdown();
    process.env = saved;
    await receiver.close();
    await database.remove();
  });

  it('exports the request, its store call and its queries as one trace', async () => {
    const created = await call(sessions.POST, 'POST', {
      params: { app: 'traced', user: 'u' },
      path: '/api/apps/traced/users/u/sessions',
      headers: { authorization: bearer },
      body: { sessionId: 's1' },
    });
    expect(created.status).toBe(200);
    const request = await receiver.waitFor((span) => span.name === 'POST /api/apps/:app/users/:user/sessions');
    expect(request.service).toBe('statehouse-test');
    expect(request.attributes).toMatchObject({ 'http.route': '/api/apps/:app/users/:user/sessions', 'http.response.status_code': 200 });
    const store = await receiver.waitFor((span) => span.name === 'store createSession');
    expect(store.traceId).toBe(request.traceId);
    expect(store.parentSpanId).toBe(request.spanId);
    expect(store.attributes).toMatchObject({ 'statehouse.store.family': 'native', 'statehouse.store.kind': 'write' });
    const statement = await receiver.waitFor((span) => span.attributes['db.system.name'] === provider && span.traceId === request.traceId);
    expect(statement.name).toBe(`${statement.attributes['db.operation.name']} ${provider}`);
    // The statement's text with its placeholders, never the values bound to them.
    expect(statement.attributes['db.query.text']).toMatch(/^\s*(SELECT|INSERT|UPDATE|WITH|BEGIN)/i);
    expect(receiver.spans.some((span) => String(span.attributes['db.query.text'] ?? '').includes("'traced'"))).toBe(false);
    expect(receiver.contentTypes.every((type) => type.startsWith('application/json'))).toBe(true);
  });
});
