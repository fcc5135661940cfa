import { afterEach, describe, expect, it, vi } from 'vitest';
import { invalidInput, SessionServiceError, sessionAlreadyExists, sessionNotFound, staleSession } from '../session-service/errors';
import { DatabaseUnavailableError, isDatabaseUnavailable } from '../db/unavailable';
import { errorResponse } from './errors';
import { HttpError } from './problem';

async function answer(error: unknown): Promise<[number, unknown]> {
  const response = errorResponse(error);
  return [response.status, await response.json()];
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('errorResponse', () => {
  it('maps domain errors by code', async () => {
    expect(await answer(invalidInput('limit is wrong.'))).toEqual([400, { detail: 'limit is wrong.' }]);
    expect(await answer(sessionNotFound('s'))).toEqual([404, { detail: 'Session s not found.' }]);
    expect(await answer(sessionAlreadyExists('s'))).toEqual([409, { detail: 'Session already exists: s' }]);
    expect((await answer(staleSession()))[0]).toBe(409);
    expect(await answer(new SessionServiceError('PAYLOAD_TOO_LARGE', 'big'))).toEqual([413, { detail: 'big' }]);
    expect(await answer(new SessionServiceError('UNAVAILABLE', 'down'))).toEqual([503, { detail: 'down' }]);
    expect(await answer(new HttpError(404, 'Session not found'))).toEqual([404, { detail: 'Session not found' }]);
  });

  it('answers 503 for database outages, with the password kept out', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const prisma = Object.assign(new Error("Can't reach database server at db:5432"), {
      name: 'PrismaClientKnownRequestError',
      code: 'P1001',
    });
    expect(await answer(prisma)).toEqual([503, { detail: "Database unavailable: Can't reach database server at db:5432" }]);
    const startup = new DatabaseUnavailableError(new Error('Unsupported database URL "mysql://root:hunter2@db/x"'));
    expect(await answer(startup)).toEqual([503, { detail: 'Database unavailable: Unsupported database URL "mysql://root:***@db/x"' }]);
  });

  it('asks for a retry and logs each outage as one line, without the stack', async () => {
    const log = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const wrapped = Object.assign(new Error('Connection terminated unexpectedly\n    at Client.end (pg/lib/client.js:1:1)'), {
      cause: Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' }),
    });
    for (const error of [wrapped, new DatabaseUnavailableError(new Error('timeout exceeded when trying to connect'))]) {
      log.mockClear();
      const response = errorResponse(error);
      expect(response.status).toBe(503);
      expect(response.headers.get('retry-after')).toBe('2');
      expect(log).toHaveBeenCalledOnce();
      expect(log.mock.calls[0]).toHaveLength(1);
      expect(String(log.mock.calls[0]?.[0])).not.toContain('\n');
    }
    expect(errorResponse(new SessionServiceError('UNAVAILABLE', 'busy')).headers.get('retry-after')).toBe('2');
  });

  it('answers 500 without internals for anything else, and logs it', async () => {
    const log = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const [status, body] = await answer(new TypeError("Cannot read properties of undefined (reading 'x')"));
    expect(status).toBe(500);
    expect(JSON.stringify(body)).not.toContain('undefined');
    expect(log).toHaveBeenCalledOnce();
  });
});

describe('isDatabaseUnavailable', () => {
  it('looks through wrapped driver errors', () => {
    const adapter = { meta: { driverAdapterError: { name: 'DriverAdapterError', cause: { kind: 'DatabaseNotReachable' } } } };
    expect(isDatabaseUnavailable(Object.assign(new Error('x'), adapter))).toBe(true);
    expect(isDatabaseUnavailable(Object.assign(new Error('x'), { cause: { code: 'ECONNREFUSED' } }))).toBe(true);
    expect(isDatabaseUnavailable(Object.assign(new Error('x'), { code: 'SQLITE_CANTOPEN' }))).toBe(true);
    expect(isDatabaseUnavailable(Object.assign(new Error('x'), { name: 'PrismaClientInitializationError' }))).toBe(true);
  });

  it('does not mistake other database errors for outages', () => {
    expect(isDatabaseUnavailable(Object.assign(new Error('x'), { code: 'P2002' }))).toBe(false);
    expect(isDatabaseUnavailable(Object.assign(new Error('x'), { cause: { kind: 'UniqueConstraintViolation' } }))).toBe(false);
    const cyclic: Record<string, unknown> = {};
    cyclic.cause = cyclic;
    expect(isDatabaseUnavailable(cyclic)).toBe(false);
  });
});
