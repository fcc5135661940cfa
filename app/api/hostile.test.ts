// Hostile and malformed input against every writing route, on SQLite and
// PostgreSQL: each is a 4xx whose detail names the field and the problem, and
// the database is byte-for-byte what it was before. What is merely unusual
// (prototype names, SQL and HTML text, unknown event fields) is stored as data
// and comes back exactly.
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { call, databaseDump, type CallOptions, type CallResult } from '@/lib/testing/http';
import { STALE_SESSION_MESSAGE } from '@/lib/session-service/errors';
import { testProviders } from '@/lib/testing/databases';
import { useTestDatabase } from '@/lib/testing/use-test-database';
import * as unknownPath from './[...path]/route';
import * as appState from './apps/[app]/state/route';
import * as sessions from './apps/[app]/users/[user]/sessions/route';
import * as session from './apps/[app]/users/[user]/sessions/[id]/route';
import * as events from './apps/[app]/users/[user]/sessions/[id]/events/route';
import * as oneEvent from './apps/[app]/users/[user]/sessions/[id]/events/[seq]/route';
import * as sessionState from './apps/[app]/users/[user]/sessions/[id]/state/route';
import * as timeline from './apps/[app]/users/[user]/sessions/[id]/timeline/route';
import * as timelinePosition from './apps/[app]/users/[user]/sessions/[id]/timeline/position/route';
import * as userState from './apps/[app]/users/[user]/state/route';
import * as render from './render/route';
import { appendEvent } from '../../lib/session-service/append';

const providers = await testProviders();

type Handler = (request: Request, context: { params: Promise<unknown> }) => Promise<Response>;
const handler = (h: unknown) => h as Handler;

const APP = 'hostile';
const USER = 'mallory';
const SESSION = 's1';
const owner = { app: APP, user: USER };
const target = { ...owner, id: SESSION };

interface Case {
  name: string;
  route: Handler;
  method: string;
  options: CallOptions<unknown>;
  status: number;
  /** The whole detail, or a part of it when it quotes something long. */
  detail: string | RegExp;
}

const nested = (depth: number, leaf: unknown = 1): unknown => {
  let value = leaf;
  for (let i = 0; i < depth; i += 1) value = [value];
  return value;
};
const manyKeys = (count: number) => Object.fromEntries(Array.from({ length: count }, (_, i) => [`k${i}`, i]));
const bytes = (...values: number[]) => new Uint8Array(values);
const utf8 = (text: string) => new TextEncoder().encode(text);

const patch = (body: unknown, params: object = target) => ({ params, body });
const append = (body: unknown, params: object = target) => ({ params, body });

const CASES: Case[] = [
  // Malformed and truncated JSON.
  ...[
    [
      'truncated object',
      '{"stateDelta": {"a": 1}',
      /^Malformed JSON at line 1, column 24 \(character 23\): expected ',' or '}', got end of input$/,
    ],
    ['truncated string', '{"stateDelta": {"a": "b', 'Malformed JSON at line 1, column 24 (character 23): unterminated string'],
    ['cut after a colon', '{"stateDelta":', /expected a JSON value$/],
    ['trailing garbage', '{"stateDelta": {}} x', /unexpected character "x" after the JSON value$/],
    ['single quotes', "{'stateDelta': {}}", /expected a double-quoted property name, got character "'"$/],
    ['NaN', '{"stateDelta": {"a": NaN}}', /unexpected character "N", expected a JSON value$/],
    ['trailing comma', '{"stateDelta": {"a": 1,}}', /expected a double-quoted property name, got character "}"$/],
    ['raw control character in a string', '{"stateDelta": {"a": "x\u0001y"}}', /control character in string \(escape it\)$/],
    ['bad escape', '{"stateDelta": {"a": "\\x41"}}', /bad escape in string$/],
    ['form data instead of JSON', 'stateDelta=%7B%7D', /unexpected character "s", expected a JSON value$/],
    ['empty body', '', 'body: required, got an empty body (expected JSON)'],
    ['whitespace only', ' \n\t ', 'body: required, got an empty body (expected JSON)'],
  ].map(([name, body, detail]): Case => ({
    name: `malformed JSON: ${name as string}`,
    route: handler(session.PATCH),
    method: 'PATCH',
    options: patch(body),
    status: 400,
    detail: detail as string | RegExp,
  })),

  // Numbers JSON.parse would silently change.
  {
    name: 'number overflow',
    route: handler(session.PATCH),
    method: 'PATCH',
    options: patch('{"stateDelta": {"a": 1e400}}'),
    status: 400,
    detail: 'body: number 1e400 at line 1, column 22 is out of range (beyond ±1.8e308)',
  },
  {
    name: 'integer beyond 2^53',
    route: handler(events.POST),
    method: 'POST',
    options: append('{"author": "a", "customMetadata": {"id": 123456789012345678901234567890}}'),
    status: 400,
    detail: /^body: number 123456789012345678901234567890 at line 1, column 42 is an integer too large to store exactly/,
  },
  {
    name: 'number underflow',
    route: handler(sessions.POST),
    method: 'POST',
    options: { params: owner, body: '{"state": {"tiny": 1e-999}}' },
    status: 400,
    detail: 'body: number 1e-999 at line 1, column 20 is too small to store (it would become 0)',
  },
  {
    name: 'timestamp in milliseconds',
    route: handler(events.POST),
    method: 'POST',
    options: append({ author: 'a', timestamp: 1_750_000_000_000 }),
    status: 400,
    detail: 'timestamp: must be seconds since the epoch, and this looks like milliseconds',
  },
  {
    name: 'negative timestamp',
    route: handler(events.POST),
    method: 'POST',
    options: append({ author: 'a', timestamp: -1 }),
    status: 400,
    detail: 'timestamp: must not be negative',
  },

  // Deep nesting.
  {
    name: 'a state value 65 levels deep',
    route: handler(session.PATCH),
    method: 'PATCH',
    options: patch({ stateDelta: { a: nested(65) } }),
    status: 400,
    detail: 'stateDelta: value of "a": nested deeper than 64 levels',
  },
  {
    name: 'a body 101 levels deep',
    route: handler(events.POST),
    method: 'POST',
    options: append({ author: 'a', customMetadata: { x: nested(99) } }),
    status: 400,
    detail: 'body: nested deeper than 100 levels',
  },
  {
    name: 'a body 500,000 levels deep',
    route: handler(events.POST),
    method: 'POST',
    options: append(`${'['.repeat(500_000)}${']'.repeat(500_000)}`),
    status: 400,
    detail: 'body: nested deeper than 100 levels',
  },
  {
    name: 'an unclosed body 300,000 levels deep',
    route: handler(events.POST),
    method: 'POST',
    options: append('{"a":'.repeat(300_000)),
    status: 400,
    detail: 'Malformed JSON at line 1, column 1500001 (character 1500000): unexpected end of input, expected a JSON value',
  },

  // Prototype names cannot stand in for fields.
  {
    name: '__proto__ carrying stateDelta',
    route: handler(session.PATCH),
    method: 'PATCH',
    options: patch('{"__proto__": {"stateDelta": {"admin": true}}}'),
    status: 400,
    detail: 'stateDelta: is required',
  },
  {
    name: '__proto__ carrying an author',
    route: handler(events.POST),
    method: 'POST',
    options: append('{"__proto__": {"author": "admin"}, "author": "", "actions": {"__proto__": {"stateDelta": {"x": 1}}}}'),
    status: 400,
    detail: 'author: must not be empty',
  },
  {
    name: 'constructor carrying a reason',
    route: handler(appState.PATCH),
    method: 'PATCH',
    options: { params: { app: APP }, body: '{"set": {"a": 1}, "constructor": {"reason": "x"}}' },
    status: 400,
    detail: 'reason: is required',
  },

  // Control characters and invalid Unicode.
  ...(
    [
      ['NUL', 'a\u0000b'],
      ['escape sequence', '\u001b[31mred'],
      ['C1 control', 'a\u0085b'],
    ] as const
  ).map(([what, id]): Case => ({
    name: `${what} in a path id`,
    route: handler(session.PATCH),
    method: 'PATCH',
    options: patch({ stateDelta: { a: 1 } }, { ...target, user: id }),
    status: 400,
    detail: 'userId: must not contain control characters',
  })),
  {
    name: 'bidirectional override in a session id',
    route: handler(sessions.POST),
    method: 'POST',
    options: { params: owner, body: { sessionId: 'invoice\u202etxt.exe' } },
    status: 400,
    detail: 'sessionId: must not contain bidirectional control characters',
  },
  {
    name: 'control character in a state key',
    route: handler(session.PATCH),
    method: 'PATCH',
    options: patch({ stateDelta: { 'a\u0000b': 1 } }),
    status: 400,
    detail: 'stateDelta: key "a\\u0000b" contains control characters',
  },
  {
    name: 'NUL in an invocation id',
    route: handler(events.POST),
    method: 'POST',
    options: append({ author: 'a', invocationId: 'i\u0000' }),
    status: 400,
    detail: 'invocationId: must not contain control characters',
  },
  {
    name: 'NUL in an event id',
    route: handler(events.POST),
    method: 'POST',
    options: append({ author: 'a', id: '\u0000' }),
    status: 400,
    detail: 'id: must not contain control characters',
  },
  {
    name: 'escape sequence in an author',
    route: handler(events.POST),
    method: 'POST',
    options: append({ author: '\u001b]0;pwned\u0007' }),
    status: 400,
    detail: 'author: must not contain control characters',
  },
  {
    name: 'NUL in an audit reason',
    route: handler(userState.PATCH),
    method: 'PATCH',
    options: { params: owner, body: { set: { a: 1 }, reason: 'because\u0000' } },
    status: 400,
    detail: 'reason: must not contain control characters other than tabs and line breaks',
  },
  {
    name: 'invalid UTF-8 bytes',
    route: handler(session.PATCH),
    method: 'PATCH',
    options: patch(bytes(...utf8('{"stateDelta": {"a": "'), 0xff, 0xfe, ...utf8('"}}'))),
    status: 400,
    detail: 'body: not valid UTF-8',
  },
  {
    name: 'overlong UTF-8 encoding of "/"',
    route: handler(session.PATCH),
    method: 'PATCH',
    options: patch(bytes(...utf8('{"stateDelta": {"a": "'), 0xc0, 0xaf, ...utf8('"}}'))),
    status: 400,
    detail: 'body: not valid UTF-8',
  },
  {
    name: 'UTF-8 encoded surrogate',
    route: handler(session.PATCH),
    method: 'PATCH',
    options: patch(bytes(...utf8('{"stateDelta": {"a": "'), 0xed, 0xa0, 0x80, ...utf8('"}}'))),
    status: 400,
    detail: 'body: not valid UTF-8',
  },
  {
    name: 'unpaired surrogate escape in a value',
    route: handler(session.PATCH),
    method: 'PATCH',
    options: patch('{"stateDelta": {"a": ["ok", "\\ud800"]}}'),
    status: 400,
    detail: 'body.stateDelta.a.1: not valid Unicode (an unpaired surrogate such as \\ud800)',
  },
  {
    name: 'unpaired surrogate escape in a key',
    route: handler(sessions.POST),
    method: 'POST',
    options: { params: owner, body: '{"state": {"\\udc00": 1}}' },
    status: 400,
    detail: 'body.state: a key is not valid Unicode (an unpaired surrogate such as \\ud800)',
  },

  // Path traversal and other ids the URLs cannot carry.
  ...(
    [
      ['..', 'appName: must not be ".." (it cannot be addressed in a URL)', { ...owner, app: '..' }],
      ['.', 'userId: must not be "." (it cannot be addressed in a URL)', { ...owner, user: '.' }],
      ['../../etc/passwd', 'appName: must not contain "/" or "\\"', { ...owner, app: '../../etc/passwd' }],
      ['..\\..\\windows', 'userId: must not contain "/" or "\\"', { ...owner, user: '..\\..\\windows' }],
      ['an empty id', 'appName: must not be empty', { ...owner, app: '' }],
      ['a 129-character id', 'userId: must be at most 128 characters', { ...owner, user: 'u'.repeat(129) }],
      ['surrounding whitespace', 'userId: must not start or end with whitespace', { ...owner, user: ' mallory' }],
    ] as const
  ).map(([what, detail, params]): Case => ({
    name: `path id: ${what}`,
    route: handler(sessions.POST),
    method: 'POST',
    options: { params, body: { sessionId: 'x' } },
    status: 400,
    detail,
  })),
  {
    name: 'traversal in a body session id',
    route: handler(sessions.POST),
    method: 'POST',
    options: { params: owner, body: { sessionId: '../s1' } },
    status: 400,
    detail: 'sessionId: must not contain "/" or "\\"',
  },
  {
    name: 'double-encoded traversal is an id like any other, never decoded twice',
    route: handler(session.PATCH),
    method: 'PATCH',
    options: patch({ stateDelta: { a: 1 } }, { ...target, id: '%2e%2e%2fs1' }),
    status: 404,
    detail: 'Session not found',
  },
  {
    name: 'SQL in a path id',
    route: handler(session.PATCH),
    method: 'PATCH',
    options: patch({ stateDelta: { a: 1 } }, { ...target, id: "s1' OR '1'='1" }),
    status: 404,
    detail: 'Session not found',
  },
  {
    name: 'SQL in an events filter',
    route: handler(events.GET),
    method: 'GET',
    options: { params: { ...target, id: "x'; DROP TABLE events; --" }, query: 'author=%27%20OR%201%3D1%20--' },
    status: 404,
    detail: "Session x'; DROP TABLE events; -- not found.",
  },
  {
    name: 'HTML in a path id',
    route: handler(events.POST),
    method: 'POST',
    options: append({ author: 'a' }, { ...target, id: '<img src=x onerror=alert(1)>' }),
    status: 404,
    detail: 'Session <img src=x onerror=alert(1)> not found.',
  },

  // Sizes and counts.
  {
    name: '1001 keys in a delta',
    route: handler(session.PATCH),
    method: 'PATCH',
    options: patch({ stateDelta: manyKeys(1001) }),
    status: 400,
    detail: 'stateDelta: 1001 keys, over the limit of 1000',
  },
  {
    name: '1001 keys in an initial state',
    route: handler(session.POST),
    method: 'POST',
    options: { params: { ...target, id: 'new' }, body: manyKeys(1001) },
    status: 400,
    detail: 'state: 1001 keys, over the limit of 1000',
  },
  {
    name: '1001 changes in a state edit',
    route: handler(appState.PATCH),
    method: 'PATCH',
    options: { params: { app: APP }, body: { set: manyKeys(1001), reason: 'bulk' } },
    status: 400,
    detail: 'set/remove: 1001 changes, over the limit of 1000',
  },
  {
    name: 'a 257-character key',
    route: handler(events.POST),
    method: 'POST',
    options: append({ author: 'a', actions: { stateDelta: { ['k'.repeat(257)]: 1 } } }),
    status: 400,
    detail: `actions.stateDelta: key "${'k'.repeat(40)}…" is longer than 256 characters`,
  },
  {
    name: 'an empty key',
    route: handler(userState.PATCH),
    method: 'PATCH',
    options: { params: owner, body: { set: { '': 1 }, reason: 'x' } },
    status: 400,
    detail: 'set: keys must not be empty',
  },
  {
    name: 'a 129-character event id',
    route: handler(events.POST),
    method: 'POST',
    options: append({ author: 'a', id: 'e'.repeat(129) }),
    status: 400,
    detail: 'id: must be at most 128 characters',
  },
  {
    name: 'a 501-character reason',
    route: handler(appState.PATCH),
    method: 'PATCH',
    options: { params: { app: APP }, body: { set: { a: 1 }, reason: 'r'.repeat(501) } },
    status: 400,
    detail: 'reason: must be at most 500 characters',
  },
  {
    name: 'a body over the limit',
    route: handler(session.PATCH),
    method: 'PATCH',
    options: patch({ stateDelta: { a: 'x'.repeat(5000) } }),
    status: 413,
    detail: 'Request body too large: the limit is 4096 bytes (STATEHOUSE_MAX_BODY_BYTES).',
  },
  {
    name: 'a body over the limit that claims to be small',
    route: handler(events.POST),
    method: 'POST',
    options: { params: target, body: 'x'.repeat(5000), headers: { 'content-length': '10' } },
    status: 413,
    detail: 'Request body too large: the limit is 4096 bytes (STATEHOUSE_MAX_BODY_BYTES).',
  },

  // Wrong types and shapes.
  {
    name: 'a delta that is a string',
    route: handler(session.PATCH),
    method: 'PATCH',
    options: patch({ stateDelta: '{"a": 1}' }),
    status: 400,
    detail: 'stateDelta: expected a JSON object, got a string',
  },
  {
    name: 'an initial state that is an array',
    route: handler(session.POST),
    method: 'POST',
    options: { params: { ...target, id: 'new' }, body: [{ a: 1 }] },
    status: 400,
    detail: 'state: expected a JSON object, got an array',
  },
  {
    name: 'an author that is an object',
    route: handler(events.POST),
    method: 'POST',
    options: append({ author: { name: 'a' } }),
    status: 400,
    detail: 'author: must be a string',
  },
  {
    name: 'one field in both spellings',
    route: handler(session.PATCH),
    method: 'PATCH',
    options: patch({ stateDelta: { a: 1 }, state_delta: { a: 2 } }),
    status: 400,
    detail: 'stateDelta: given twice, as stateDelta and state_delta',
  },
  {
    name: 'a bad event among good ones',
    route: handler(sessions.POST),
    method: 'POST',
    options: {
      params: owner,
      body: { sessionId: 'fresh', state: { 'app:x': 1 }, events: [{ author: 'a' }, { author: 'b', partial: 'no' }] },
    },
    status: 400,
    detail: 'events.1.partial: expected a boolean, got a string',
  },
  {
    name: 'a garbage If-Match',
    route: handler(events.POST),
    method: 'POST',
    options: { params: target, body: { author: 'a' }, headers: { 'if-match': '1; DROP TABLE sessions' } },
    status: 400,
    detail: 'If-Match: expected the session\'s revision (an integer such as 7 or "7"), got "1; DROP TABLE sessions"',
  },
  {
    name: 'a stale If-Match',
    route: handler(events.POST),
    method: 'POST',
    options: { params: target, body: { author: 'a' }, headers: { 'if-match': '0' } },
    status: 409,
    detail: 'The session has been modified in storage since it was loaded. Please reload the session before appending more events.',
  },
  {
    name: 'an existing session id',
    route: handler(session.POST),
    method: 'POST',
    options: { params: target, body: { 'user:plan': 'free' } },
    status: 409,
    detail: 'Session already exists: s1',
  },
  {
    name: 'a cross-site request',
    route: handler(session.DELETE),
    method: 'DELETE',
    options: { params: target, headers: { origin: 'https://evil.example' } },
    status: 403,
    detail: 'Forbidden: origin not allowed (https://evil.example); list it in STATEHOUSE_ALLOWED_ORIGINS to allow it.',
  },
  {
    name: 'a render template over the limit',
    route: handler(render.POST),
    method: 'POST',
    options: { body: { template: '{x}'.repeat(40_000), state: {} } },
    status: 400,
    detail: 'template: must be at most 100000 characters',
  },
  {
    name: 'an unknown route',
    route: handler(unknownPath.POST),
    method: 'POST',
    options: { params: { path: ['apps', APP, 'drop'] }, body: {} },
    status: 404,
    detail: 'Not Found',
  },

  // Query strings.
  ...(
    [
      ['limit=1e400', 'limit: expected an integer from 1 to 1000, got "1e400"'],
      ['limit=99999999999999999999', 'limit: expected an integer from 1 to 1000, got "99999999999999999999"'],
      ['after=-1', 'after: expected an integer from 0 to 2147483647, got "-1"'],
      ['offset=0x10', 'offset: expected an integer ≥ 0, got "0x10"'],
      ['order=asc%3BDROP', 'order: must be asc or desc'],
      ['after=1&after=2', 'after: given more than once'],
      // Beyond PostgreSQL's integer columns: a 400, not a failed query.
      ['after=3000000000', 'after: expected an integer from 0 to 2147483647, got "3000000000"'],
    ] as const
  ).map(([query, detail]): Case => ({
    name: `query: ${query}`,
    route: handler(events.GET),
    method: 'GET',
    options: { params: target, query },
    status: 400,
    detail,
  })),
  {
    name: 'an event sequence number beyond any',
    route: handler(oneEvent.GET),
    method: 'GET',
    options: { params: { ...target, seq: '3000000000' } },
    status: 400,
    detail: 'seq: expected an integer from 1 to 2147483647, got "3000000000"',
  },
  {
    name: 'state as of a sequence number beyond any',
    route: handler(sessionState.GET),
    method: 'GET',
    options: { params: target, query: 'asOf=9007199254740991' },
    status: 400,
    detail: 'asOf: expected an integer from 0 to 2147483647, got "9007199254740991"',
  },
  {
    name: 'a timeline after a sequence number beyond any',
    route: handler(timeline.GET),
    method: 'GET',
    options: { params: target, query: 'after=2147483648' },
    status: 400,
    detail: 'after: expected an integer from 0 to 2147483647, got "2147483648"',
  },
  {
    name: 'a timeline position beyond any',
    route: handler(timelinePosition.GET),
    method: 'GET',
    options: { params: target, query: 'seq=3000000000' },
    status: 400,
    detail: 'seq: expected an integer from 1 to 2147483647, got "3000000000"',
  },
  {
    // ADK stores' revisions are update times in microseconds, so the edge takes any safe integer;
    // Statehouse's own store has never reached this one.
    name: 'an If-Match beyond any revision this store has',
    route: handler(events.POST),
    method: 'POST',
    options: { params: target, body: { author: 'a' }, headers: { 'if-match': '3000000000' } },
    status: 409,
    detail: STALE_SESSION_MESSAGE,
  },
  {
    name: 'an If-Match beyond any integer a revision can be',
    route: handler(events.POST),
    method: 'POST',
    options: { params: target, body: { author: 'a' }, headers: { 'if-match': '9007199254740993' } },
    status: 400,
    detail: 'If-Match: expected the session\'s revision (an integer such as 7 or "7"), got "9007199254740993"',
  },
];

describe.each(providers)('hostile input on %s', (provider) => {
  const database = useTestDatabase(provider, { serveRoutes: true });

  beforeAll(async () => {
    // Something to damage: a session with events and all three tiers.
    const created = await database.service.createSession({
      appName: APP,
      userId: USER,
      sessionId: SESSION,
      state: { 'app:mode': 'live', 'user:plan': 'pro', step: 1 },
    });
    await appendEvent(database.service, created, { author: 'agent', actions: { stateDelta: { step: 2, 'user:seen': true } } });
    await database.service.editState({ scope: 'app', appName: APP, changes: { banner: 'hi' }, actor: 'ops', reason: 'setup' });
  });
  afterEach(() => {
    delete process.env.STATEHOUSE_MAX_BODY_BYTES;
  });

  it.each(CASES.map((c) => [c.name, c] as const))('%s', async (_name, c) => {
    // A small limit keeps the 413 cases' bodies small.
    if (c.status === 413) process.env.STATEHOUSE_MAX_BODY_BYTES = '4096';
    const before = await databaseDump(database);
    const result: CallResult = await call(c.route, c.method, c.options);
    expect(result.status, result.text).toBe(c.status);
    expect(result.headers.get('content-type')).toMatch(/^application\/json/);
    expect(Object.keys(result.json as object)).toEqual(['detail']);
    const { detail } = result.json as { detail: string };
    if (typeof c.detail === 'string') expect(detail).toBe(c.detail);
    else expect(detail).toMatch(c.detail);
    expect(await databaseDump(database)).toEqual(before);
  });

  it('notices a change: the dump comparison above can fail', async () => {
    const before = await databaseDump(database);
    const result = await call(session.PATCH, 'PATCH', { params: target, body: { stateDelta: { step: 3 } } });
    expect(result.status).toBe(200);
    expect(await databaseDump(database)).not.toEqual(before);
  });

  it('stores prototype names, SQL and HTML as data and returns them exactly', async () => {
    // An app and user of their own, so no other test's shared state is merged in.
    const dataOwner = { app: 'hostile-data', user: 'eve' };
    const state = JSON.parse(
      '{"__proto__": {"polluted": true}, "constructor": "c", "toString": 1, "hasOwnProperty": null,' +
        ' "x\'); DROP TABLE sessions; --": "1\' OR \'1\'=\'1", "<script>alert(1)</script>": "<img src=x onerror=alert(1)>",' +
        ' "user:__proto__": {"isAdmin": true}, "app:valueOf": [1], "ünïcödé 😀": "\\u2028\\u2029 line separators"}',
    ) as Record<string, unknown>;
    const created = await call(sessions.POST, 'POST', { params: dataOwner, body: JSON.stringify({ sessionId: "it's <b>fine<b>", state }) });
    expect(created.status, created.text).toBe(200);

    const event =
      '{"author": "<b>agent</b>", "invocationId": "\'; SELECT pg_sleep(10); --", "__proto__": {"author": "admin"},' +
      ' "constructor": {"prototype": {"polluted": true}}, "toJSON": "not a function", "futureField": {"kept": [1, 2]},' +
      ' "actions": {"stateDelta": {"__proto__": {"again": true}}, "unknownAction": {"run": "rm -rf /"}}}';
    const appended = await call(events.POST, 'POST', { params: { ...dataOwner, id: "it's <b>fine<b>" }, body: event });
    expect(appended.status, appended.text).toBe(200);

    const loaded = await call(session.GET, 'GET', { params: { ...dataOwner, id: "it's <b>fine<b>" } });
    expect(loaded.status).toBe(200);
    expect(loaded.headers.get('content-type')).toMatch(/^application\/json/);
    const body = JSON.parse(loaded.text) as { state: Record<string, unknown>; events: Record<string, unknown>[] };
    expect(Object.keys(body.state).sort()).toEqual([...Object.keys(state).filter((key) => key !== '__proto__'), '__proto__'].sort());
    expect(Object.getOwnPropertyDescriptor(body.state, '__proto__')?.value).toEqual({ again: true });
    expect(body.state["x'); DROP TABLE sessions; --"]).toBe("1' OR '1'='1");
    expect(body.state['<script>alert(1)</script>']).toBe('<img src=x onerror=alert(1)>');
    expect(Object.getOwnPropertyDescriptor(body.state, 'user:__proto__')?.value).toEqual({ isAdmin: true });
    expect(body.state['ünïcödé 😀']).toBe('\u2028\u2029 line separators');

    const stored = body.events[0] ?? {};
    expect(stored.author).toBe('<b>agent</b>');
    expect(stored.invocationId).toBe("'; SELECT pg_sleep(10); --");
    expect(Object.getOwnPropertyDescriptor(stored, '__proto__')?.value).toEqual({ author: 'admin' });
    expect(stored.constructor).toEqual({ prototype: { polluted: true } });
    expect(stored.toJSON).toBe('not a function');
    expect(stored.futureField).toEqual({ kept: [1, 2] });
    expect(stored.actions).toMatchObject({ unknownAction: { run: 'rm -rf /' } });

    // Nothing reached a prototype, and every table is still there.
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(({} as Record<string, unknown>).again).toBeUndefined();
    expect(({} as Record<string, unknown>).isAdmin).toBeUndefined();
    expect(Object.keys(await databaseDump(database))).toEqual(
      expect.arrayContaining(['app_state', 'events', 'session_state', 'sessions', 'state_changes', 'user_state']),
    );
  });
});
