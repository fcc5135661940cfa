// Hostile and malformed input against every writing server action, on
// SQLite and PostgreSQL, as app/api/hostile.test.ts does for the API: a
// server action is reachable by a direct POST with any JSON-ish arguments, so
// each bad input must come back as a specific failure value (never a throw,
// never the generic INTERNAL), and the database must be exactly what it was.
// What is merely unusual (prototype names, SQL and HTML text) is stored as
// data and comes back exactly. Vitest runs in local mode (vitest.config.ts):
// the real role check passes as the local operator, an admin.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { AccountStore } from '../auth/store';
import { setServicesForTests } from '../services';
import { databaseDump } from '../testing/http';
import { testProviders } from '../testing/databases';
import { useTestDatabase } from '../testing/use-test-database';
import { createAccount, createApiToken, revokeApiToken, setAccountPassword, updateAccount } from './accounts';
import { appendEvent } from './events';
import type { ActionErrorCode, ActionResult } from '../commands/result';
import { editState } from './state';
import { appendEvent as appendToCopy } from '../session-service/append';

// Next's cache needs a running server; the e2e specs cover the real re-render.
vi.mock('next/cache', () => ({ revalidatePath: () => undefined }));

const providers = await testProviders();

const APP = 'hostile-actions';
const USER = 'mallory';
const SESSION = 's1';
const PASSWORD = 'correct horse battery';
/** The session's revision after setup (one event). */
const REVISION = 1;

type Action = (input: never) => Promise<ActionResult<unknown>>;

interface Case {
  name: string;
  action: Action;
  input: unknown;
  code: ActionErrorCode;
  /** The message of one field (`path: message`), or of the failure itself when it names no field. */
  field?: string;
  message: string | RegExp;
}

const nested = (depth: number, leaf = '1') => '['.repeat(depth) + leaf + ']'.repeat(depth);
const manyKeys = (count: number) => JSON.stringify(Object.fromEntries(Array.from({ length: count }, (_, i) => [`k${i}`, i])));
const MiB = 1024 * 1024;

const target = { appName: APP, userId: USER, sessionId: SESSION, revision: REVISION };
const append = (fields: Record<string, unknown>) => ({ ...target, text: 'hi', ...fields });
const userEdit = (fields: Record<string, unknown>) => ({
  scope: 'user',
  appName: APP,
  userId: USER,
  changes: [{ key: 'plan', value: '"pro"' }],
  reason: 'ticket 1',
  ...fields,
});
const change = (fields: Record<string, unknown>) => userEdit({ changes: [{ key: 'plan', value: '"pro"', ...fields }] });

function invalid(action: Action, name: string, input: unknown, field: string, message: string | RegExp): Case {
  return { name, action, input, code: 'INVALID_INPUT', field, message };
}

/** The same bad id in each of the three id fields of appendEvent and where editState takes them. */
function badIds(name: string, id: unknown, message: string | RegExp): Case[] {
  return [
    ...(['appName', 'userId', 'sessionId'] as const).map((field) =>
      invalid(appendEvent, `appendEvent: ${name} as ${field}`, append({ [field]: id }), field, message),
    ),
    invalid(editState, `editState: ${name} as appName`, userEdit({ appName: id }), 'appName', message),
    invalid(editState, `editState: ${name} as userId`, userEdit({ userId: id }), 'userId', message),
  ];
}

/** A stateDelta text for appendEvent and the same text as an edited value, where both refuse it. */
function badJson(name: string, text: string, delta: string | RegExp, value: string | RegExp = delta): Case[] {
  return [
    invalid(appendEvent, `appendEvent delta: ${name}`, append({ stateDelta: text }), 'stateDelta', delta),
    invalid(editState, `editState value: ${name}`, change({ value: text }), 'changes.0.value', value),
  ];
}

const CASES: Case[] = [
  // Malformed and truncated JSON text.
  ...badJson('truncated object', '{"a": 1', "Malformed JSON at line 1, column 8: expected ',' or '}', got end of input"),
  ...badJson('truncated string', '{"a": "b', 'Malformed JSON at line 1, column 9: unterminated string'),
  ...badJson('cut after a colon', '{"a":', /^Malformed JSON at line 1, column 6: .*expected a JSON value$/),
  ...badJson('trailing garbage', '{"a": 1} x', /^Malformed JSON at line 1, column 10: unexpected character "x" after the JSON value$/),
  ...badJson(
    'single quotes',
    "{'a': 1}",
    /^Malformed JSON at line 1, column 2: expected a double-quoted property name, got character "'"$/,
  ),
  ...badJson('NaN', '{"a": NaN}', /^Malformed JSON at line 1, column 7: unexpected character "N", expected a JSON value$/),
  ...badJson(
    'trailing comma',
    '{\n  "a": 1,\n}',
    'Malformed JSON at line 3, column 1: expected a double-quoted property name, got character "}"',
  ),
  ...badJson(
    'a raw control character in a string',
    '{"a": "x\u0001y"}',
    /^Malformed JSON at line 1, column 9: control character in string \(escape it\)$/,
  ),
  ...badJson('a bad escape', '{"a": "\\x41"}', /^Malformed JSON at line 1, column \d+: bad escape in string$/),
  ...badJson(
    'form data instead of JSON',
    'a=1&b=2',
    /^Malformed JSON at line 1, column 1: unexpected character "a", expected a JSON value$/,
  ),
  invalid(editState, 'editState value: empty', change({ value: '' }), 'changes.0.value', 'Empty input: expected JSON.'),
  invalid(editState, 'editState value: whitespace only', change({ value: ' \n\t ' }), 'changes.0.value', 'Empty input: expected JSON.'),

  // Not an object where the delta must be one.
  ...(
    [
      ['an array', '[1]', 'expected a JSON object, got an array'],
      ['a string', '"text"', 'expected a JSON object, got a string'],
      ['null', 'null', 'expected a JSON object, got null'],
      ['a number', '42', 'expected a JSON object, got a number'],
    ] as const
  ).map(([name, text, message]) => invalid(appendEvent, `appendEvent delta: ${name}`, append({ stateDelta: text }), 'stateDelta', message)),

  // Numbers JSON.parse would silently change.
  ...badJson('number overflow', '{"a": 1e400}', 'The number 1e400 at line 1, column 7 is out of range (beyond ±1.8e308).'),
  ...badJson(
    'an integer beyond 2^53',
    '{"a": 12345678901234567890}',
    'The number 12345678901234567890 at line 1, column 7 is an integer too large to store exactly (beyond ±9007199254740991); send it as a string.',
  ),
  ...badJson('number underflow', '{"a": 1e-400}', 'The number 1e-400 at line 1, column 7 is too small to store (it would become 0).'),
  invalid(appendEvent, 'appendEvent: a huge revision', append({ revision: 1e400 }), 'revision', 'must be a number'),
  invalid(appendEvent, 'appendEvent: an unsafe integer revision', append({ revision: 2 ** 53 + 2 }), 'revision', 'must be an integer'),

  // Deep nesting.
  invalid(
    appendEvent,
    'appendEvent delta: a value nested 65 levels',
    append({ stateDelta: `{"a": ${nested(65)}}` }),
    'stateDelta',
    'value of "a": nested deeper than 64 levels',
  ),
  invalid(
    editState,
    'editState: a value nested 65 levels',
    change({ value: nested(65) }),
    'changes.0.value',
    'nested deeper than 64 levels',
  ),
  ...badJson('500,000 levels of nesting', `{"a": ${nested(500_000)}}`, /nested deeper than 64 levels$/),
  invalid(
    appendEvent,
    'appendEvent: function call args nested 65 levels',
    append({ functionCall: { name: 'f', json: `{"a": ${nested(64)}}` } }),
    'functionCall.json',
    'nested deeper than 64 levels',
  ),

  // Control characters.
  invalid(
    appendEvent,
    'appendEvent delta: a key with a control character',
    append({ stateDelta: '{"a\\u0001b": 1}' }),
    'stateDelta',
    'key "a\\u0001b" contains control characters',
  ),
  invalid(
    editState,
    'editState: a key with NUL',
    change({ key: 'a\u0000b' }),
    'changes.0.key',
    'key "a\\u0000b" contains control characters',
  ),
  ...badIds('NUL', 'a\u0000b', 'must not contain control characters'),
  invalid(
    appendEvent,
    'appendEvent: an author with a newline',
    append({ author: 'a\nb' }),
    'author',
    'must not contain control characters',
  ),
  invalid(
    appendEvent,
    'appendEvent: an invocation id with ESC',
    append({ invocationId: '\u001b[31mred' }),
    'invocationId',
    'must not contain control characters',
  ),
  invalid(
    appendEvent,
    'appendEvent: a bidi override in the author',
    append({ author: 'admin\u202egpj.exe' }),
    'author',
    'must not contain bidirectional control characters',
  ),
  invalid(
    editState,
    'editState: a reason with NUL',
    userEdit({ reason: 'why\u0000' }),
    'reason',
    'must not contain control characters other than tabs and line breaks',
  ),

  // Invalid UTF-16: unpaired surrogates.
  ...badIds('a lone surrogate', 'a\ud800', 'must be valid Unicode (it contains an unpaired surrogate)'),
  invalid(
    appendEvent,
    'appendEvent: a lone surrogate in the author',
    append({ author: '\udc00' }),
    'author',
    'must be valid Unicode (it contains an unpaired surrogate)',
  ),
  invalid(
    appendEvent,
    'appendEvent: a lone surrogate in the text',
    append({ text: 'half \ud83d' }),
    'text',
    'must be valid Unicode (it contains an unpaired surrogate)',
  ),
  invalid(
    appendEvent,
    'appendEvent: a lone surrogate in a function name',
    append({ functionCall: { name: 'f\ud800', json: '' } }),
    'functionCall.name',
    'must be valid Unicode (it contains an unpaired surrogate)',
  ),
  ...badJson(
    'an escaped lone surrogate in a value',
    '{"a": "\\ud800"}',
    'value.a: not valid Unicode (an unpaired surrogate such as \\ud800)',
    'value.a: not valid Unicode (an unpaired surrogate such as \\ud800)',
  ),
  ...badJson('a raw lone surrogate in a value', '{"a": "\ud800"}', 'value.a: not valid Unicode (an unpaired surrogate such as \\ud800)'),
  invalid(
    appendEvent,
    'appendEvent delta: a lone surrogate in a key',
    append({ stateDelta: '{"\\udc00": 1}' }),
    'stateDelta',
    'value: a key is not valid Unicode (an unpaired surrogate such as \\ud800)',
  ),
  invalid(
    editState,
    'editState: a lone surrogate in a key',
    change({ key: 'k\ud800' }),
    'changes.0.key',
    'key "k\\ud800" is not valid Unicode (it contains an unpaired surrogate)',
  ),
  invalid(
    editState,
    'editState: a lone surrogate in the reason',
    userEdit({ reason: 'why \udfff' }),
    'reason',
    'must be valid Unicode (it contains an unpaired surrogate)',
  ),

  // Over-long ids, keys, values and counts.
  ...badIds('a 129-character id', 'x'.repeat(129), 'must be at most 128 characters'),
  invalid(
    appendEvent,
    'appendEvent: a 129-character author',
    append({ author: 'a'.repeat(129) }),
    'author',
    'must be at most 128 characters',
  ),
  invalid(
    appendEvent,
    'appendEvent: a 129-character invocation id',
    append({ invocationId: 'i'.repeat(129) }),
    'invocationId',
    'must be at most 128 characters',
  ),
  invalid(
    appendEvent,
    'appendEvent delta: a 257-character key',
    append({ stateDelta: `{"${'k'.repeat(257)}": 1}` }),
    'stateDelta',
    `key "${'k'.repeat(40)}…" is longer than 256 characters`,
  ),
  invalid(
    editState,
    'editState: a 257-character key',
    change({ key: 'k'.repeat(257) }),
    'changes.0.key',
    `key "${'k'.repeat(40)}…" is longer than 256 characters`,
  ),
  invalid(
    appendEvent,
    'appendEvent delta: 1001 keys',
    append({ stateDelta: manyKeys(1001) }),
    'stateDelta',
    '1001 keys, over the limit of 1000',
  ),
  invalid(
    editState,
    'editState: 1001 changes',
    userEdit({ changes: Array.from({ length: 1001 }, (_, i) => ({ key: `k${i}`, value: '1' })) }),
    'changes',
    'must have at most 1000 changes',
  ),
  invalid(
    appendEvent,
    'appendEvent: a delta text over 2 MiB',
    append({ stateDelta: `{"a": "${'x'.repeat(2 * MiB)}"}` }),
    'stateDelta',
    'is over the 2 MiB limit (2,097,152 characters)',
  ),
  invalid(
    appendEvent,
    'appendEvent: a text over 2 MiB',
    append({ text: 'x'.repeat(2 * MiB + 1) }),
    'text',
    'is over the 2 MiB limit (2,097,152 characters)',
  ),
  ...badJson(
    'a value over 2 MiB of UTF-8 in fewer characters',
    `{"a": "${'é'.repeat(1.1 * MiB)}"}`,
    /^value of "a": [\d.]+ MiB of JSON \([\d,]+ bytes\), over the 2 MiB limit$/,
    /^[\d.]+ MiB of JSON \([\d,]+ bytes\), over the 2 MiB limit$/,
  ),
  invalid(
    editState,
    'editState: a 501-character reason',
    userEdit({ reason: 'r'.repeat(501) }),
    'reason',
    'must be at most 500 characters',
  ),

  // Path traversal and ids that cannot be addressed.
  ...badIds('..', '..', 'must not be ".." (it cannot be addressed in a URL)'),
  ...badIds('.', '.', 'must not be "." (it cannot be addressed in a URL)'),
  ...badIds('a path', '../../etc/passwd', 'must not contain "/" or "\\"'),
  ...badIds('a Windows path', '..\\..\\boot.ini', 'must not contain "/" or "\\"'),
  ...badIds('surrounding whitespace', ' s1 ', 'must not start or end with whitespace'),
  ...badIds('an empty id', '', 'must not be empty'),

  // Wrong types for every field.
  ...badIds('a number', 7, 'must be a string'),
  ...badIds('null', null, 'must be a string'),
  ...badIds('an object', { toString: 's1' }, 'must be a string'),
  invalid(appendEvent, 'appendEvent: a revision that is a string', append({ revision: '1' }), 'revision', 'must be a number'),
  invalid(appendEvent, 'appendEvent: a negative revision', append({ revision: -1 }), 'revision', 'must not be negative'),
  invalid(appendEvent, 'appendEvent: a fractional revision', append({ revision: 0.5 }), 'revision', 'must be an integer'),
  invalid(appendEvent, 'appendEvent: a NaN revision', append({ revision: Number.NaN }), 'revision', 'must be a number'),
  invalid(
    appendEvent,
    'appendEvent: no revision',
    { appName: APP, userId: USER, sessionId: SESSION, text: 'x' },
    'revision',
    'must be a number',
  ),
  invalid(appendEvent, 'appendEvent: an author that is a number', append({ author: 5 }), 'author', 'must be a string'),
  invalid(
    appendEvent,
    'appendEvent: an invocation id that is an array',
    append({ invocationId: ['x'] }),
    'invocationId',
    'must be a string',
  ),
  invalid(appendEvent, 'appendEvent: a text that is an object', append({ text: { html: '<b>' } }), 'text', 'must be a string'),
  invalid(appendEvent, 'appendEvent: a delta that is an object', append({ stateDelta: { a: 1 } }), 'stateDelta', 'must be a string'),
  invalid(
    appendEvent,
    'appendEvent: a function call that is a string',
    append({ functionCall: 'f()' }),
    'functionCall',
    'Invalid input: expected object, received string',
  ),
  invalid(
    appendEvent,
    'appendEvent: a function name that is a number',
    append({ functionCall: { name: 5, json: '' } }),
    'functionCall.name',
    'must be a string',
  ),
  invalid(
    appendEvent,
    'appendEvent: function call args that are an object',
    append({ functionCall: { name: 'f', json: { a: 1 } } }),
    'functionCall.json',
    'must be a string',
  ),
  invalid(
    appendEvent,
    'appendEvent: function call args that are an array',
    append({ functionCall: { name: 'f', json: '[1]' } }),
    'functionCall.json',
    'expected a JSON object, got an array',
  ),
  invalid(
    appendEvent,
    'appendEvent: a function response that is an array',
    append({ functionResponse: [] }),
    'functionResponse',
    'Invalid input: expected object, received array',
  ),
  invalid(
    appendEvent,
    'appendEvent: nothing to append',
    append({ text: '  ', stateDelta: '{}' }),
    'form',
    'An event needs text, a function call or response, or a state delta.',
  ),
  invalid(
    appendEvent,
    'appendEvent delta: a bare prefix as a key',
    append({ stateDelta: '{"user:": 1}' }),
    'stateDelta',
    'key "user:" names no key in the user tier: keys must not be empty',
  ),
  invalid(editState, 'editState: a scope of session', userEdit({ scope: 'session' }), 'scope', 'must be app or user'),
  invalid(editState, 'editState: a scope that is a number', userEdit({ scope: 1 }), 'scope', 'must be app or user'),
  invalid(editState, 'editState: user scope without a user', userEdit({ userId: undefined }), 'userId', 'is required to edit user state'),
  invalid(
    editState,
    'editState: changes that are an object',
    userEdit({ changes: { plan: '"pro"' } }),
    'changes',
    'must be a list of changes',
  ),
  invalid(editState, 'editState: no changes', userEdit({ changes: [] }), 'changes', 'needs at least one change'),
  invalid(
    editState,
    'editState: a change that is a string',
    userEdit({ changes: ['plan=pro'] }),
    'changes.0',
    'Invalid input: expected object, received string',
  ),
  invalid(editState, 'editState: a key that is a number', change({ key: 1 }), 'changes.0.key', 'must be a string'),
  invalid(editState, 'editState: an empty key', change({ key: '' }), 'changes.0.key', 'keys must not be empty'),
  invalid(editState, 'editState: a value that is not text', change({ value: { a: 1 } }), 'changes.0.value', 'must be a string'),
  invalid(
    editState,
    'editState: remove that is a string',
    change({ remove: 'yes' }),
    'changes.0.remove',
    'Invalid input: expected boolean, received string',
  ),
  invalid(
    editState,
    'editState: a seen value of the wrong shape',
    change({ seen: { present: 'yes' } }),
    'changes.0.seen',
    'must be {present: false} or {present: true, value}',
  ),
  invalid(
    editState,
    'editState: one key twice',
    userEdit({
      changes: [
        { key: 'a', value: '1' },
        { key: 'a', value: '2' },
      ],
    }),
    'changes.1.key',
    'appears twice in one edit',
  ),
  invalid(editState, 'editState: a reason that is a number', userEdit({ reason: 42 }), 'reason', 'is required'),
  invalid(
    editState,
    'editState: a blank reason',
    userEdit({ reason: ' \n ' }),
    'reason',
    'is required: say why you are changing this state',
  ),

  // SQL-ish ids are ids: they name nothing that exists.
  {
    name: 'appendEvent: a SQL-ish session id',
    action: appendEvent,
    input: append({ sessionId: "s1' OR '1'='1" }),
    code: 'NOT_FOUND',
    message: "Session s1' OR '1'='1 not found.",
  },
  {
    name: 'appendEvent: a stale revision',
    action: appendEvent,
    input: append({ revision: 0 }),
    code: 'STALE_SESSION',
    message: 'The session has been modified in storage since it was loaded. Please reload the session before appending more events.',
  },
  {
    name: 'editState: a seen value that is no longer there',
    action: editState,
    input: change({ seen: { present: true, value: '<script>alert(1)</script>' } }),
    code: 'CONFLICT',
    field: 'changes.0.key',
    message: 'changed since you opened it: it is now "free" by session:create',
  },
];

// Whole inputs that are not objects, for every action.
const ACTIONS: [string, Action][] = [
  ['appendEvent', appendEvent],
  ['editState', editState],
  ['createAccount', createAccount],
  ['updateAccount', updateAccount],
  ['setAccountPassword', setAccountPassword],
  ['createApiToken', createApiToken],
  ['revokeApiToken', revokeApiToken],
];
for (const [actionName, action] of ACTIONS) {
  for (const [name, input] of [
    ['no input', undefined],
    ['null', null],
    ['a string', '{"appName": "x"}'],
    ['a number', 42],
    ['an array', [{}]],
    ['a prototype-polluting object', JSON.parse('{"__proto__": {"role": "admin", "ok": true}}') as unknown],
  ] as const) {
    CASES.push({ name: `${actionName}: ${name}`, action, input, code: 'INVALID_INPUT', message: 'Some fields need attention.' });
  }
}

// The account actions (the local operator is an admin).
const account = (fields: Record<string, unknown>) => ({ name: 'newcomer', password: PASSWORD, role: 'viewer', ...fields });
const NAME_RULE = 'may use letters, digits, ".", "_", "@" and "-", starting with a letter or digit';
for (const [name, value, message] of [
  ['HTML', '<script>alert(1)</script>', NAME_RULE],
  ['SQL', "ada'; DROP TABLE accounts; --", NAME_RULE],
  ['a path', '../../etc/passwd', NAME_RULE],
  ['NUL', 'ada\u0000', NAME_RULE],
  ['a lone surrogate', 'ada\ud800', NAME_RULE],
  ['a leading dot', '.ada', NAME_RULE],
  ['65 characters', 'a'.repeat(65), 'must be at most 64 characters'],
  ['nothing', '', 'is required'],
  ['a number', 5, 'is required'],
] as const) {
  CASES.push(invalid(createAccount, `createAccount: a name with ${name}`, account({ name: value }), 'name', message));
  CASES.push(invalid(createApiToken, `createApiToken: a name with ${name}`, { name: value, label: 'ci' }, 'name', message));
}
CASES.push(
  invalid(createAccount, 'createAccount: a short password', account({ password: 'hunter2' }), 'password', 'must be at least 12 characters'),
  invalid(
    createAccount,
    'createAccount: a 1025-character password',
    account({ password: 'p'.repeat(1025) }),
    'password',
    'must be at most 1024 characters',
  ),
  invalid(createAccount, 'createAccount: a password that is a number', account({ password: 123456789012 }), 'password', 'is required'),
  invalid(createAccount, 'createAccount: an unknown role', account({ role: 'root' }), 'role', 'must be one of viewer, support, admin'),
  invalid(
    createAccount,
    'createAccount: a role of __proto__',
    account({ role: '__proto__' }),
    'role',
    'must be one of viewer, support, admin',
  ),
  invalid(createAccount, 'createAccount: a role in capitals', account({ role: 'ADMIN' }), 'role', 'must be one of viewer, support, admin'),
  {
    name: 'createAccount: an existing name',
    action: createAccount,
    input: account({ name: 'ada' }),
    code: 'ALREADY_EXISTS',
    message: 'An account named ada already exists.',
  },
  invalid(updateAccount, 'updateAccount: nothing to change', { name: 'ada' }, 'form', 'Nothing to change.'),
  invalid(
    updateAccount,
    'updateAccount: disabled as a string',
    { name: 'sam', disabled: 'true' },
    'disabled',
    'Invalid input: expected boolean, received string',
  ),
  invalid(
    updateAccount,
    'updateAccount: an unknown role',
    { name: 'sam', role: 'superuser' },
    'role',
    'must be one of viewer, support, admin',
  ),
  {
    name: 'updateAccount: an unknown account',
    action: updateAccount,
    input: { name: 'nobody', role: 'admin' },
    code: 'NOT_FOUND',
    message: 'No account named nobody.',
  },
  invalid(
    setAccountPassword,
    'setAccountPassword: a short password',
    { name: 'sam', password: 'x' },
    'password',
    'must be at least 12 characters',
  ),
  {
    name: 'setAccountPassword: an unknown account',
    action: setAccountPassword,
    input: { name: 'nobody', password: PASSWORD },
    code: 'NOT_FOUND',
    message: 'No account named nobody.',
  },
  invalid(createApiToken, 'createApiToken: an empty label', { name: 'sam', label: ' ' }, 'label', 'is required'),
  invalid(
    createApiToken,
    'createApiToken: a 101-character label',
    { name: 'sam', label: 'l'.repeat(101) },
    'label',
    'must be at most 100 characters',
  ),
  invalid(
    createApiToken,
    'createApiToken: a label with NUL',
    { name: 'sam', label: 'ci\u0000' },
    'label',
    'must not contain control characters',
  ),
  invalid(
    createApiToken,
    'createApiToken: a label with a lone surrogate',
    { name: 'sam', label: 'ci \ud800' },
    'label',
    'must be valid Unicode (it contains an unpaired surrogate)',
  ),
  invalid(createApiToken, 'createApiToken: a label that is an object', { name: 'sam', label: { text: 'ci' } }, 'label', 'is required'),
  {
    name: 'createApiToken: an unknown account',
    action: createApiToken,
    input: { name: 'nobody', label: 'ci' },
    code: 'NOT_FOUND',
    message: 'No account named nobody.',
  },
  invalid(revokeApiToken, 'revokeApiToken: an id that is a string', { id: '1' }, 'id', 'must be a number'),
  invalid(revokeApiToken, 'revokeApiToken: a SQL-ish id', { id: '1 OR 1=1' }, 'id', 'must be a number'),
  invalid(revokeApiToken, 'revokeApiToken: a negative id', { id: -1 }, 'id', 'must be positive'),
  invalid(revokeApiToken, 'revokeApiToken: a fractional id', { id: 1.5 }, 'id', 'must be an integer'),
  invalid(revokeApiToken, 'revokeApiToken: a NaN id', { id: Number.NaN }, 'id', 'must be a number'),
  invalid(revokeApiToken, 'revokeApiToken: an infinite id', { id: Number.POSITIVE_INFINITY }, 'id', 'must be a number'),
  invalid(revokeApiToken, 'revokeApiToken: an unsafe integer id', { id: 2 ** 53 + 2 }, 'id', 'must be an integer'),
  invalid(revokeApiToken, 'revokeApiToken: an id beyond PostgreSQL integers', { id: 3_000_000_000 }, 'id', 'must be at most 2147483647'),
  invalid(appendEvent, 'appendEvent: a revision beyond safe integers', append({ revision: 2 ** 53 + 2 }), 'revision', 'must be an integer'),
  ...[2_000_000_000, 2_147_483_647].map((id): Case => ({
    name: `revokeApiToken: an unknown id ${id}`,
    action: revokeApiToken,
    input: { id },
    code: 'NOT_FOUND',
    message: `No API token with id ${id}.`,
  })),
);

describe.each(providers)('hostile input to the server actions on %s', (provider) => {
  const database = useTestDatabase(provider, { serveRoutes: true });

  beforeAll(async () => {
    const accounts = new AccountStore(database.db.client);
    setServicesForTests({ store: database.service, accounts });
    // Something to damage: a session with an event, all three tiers, accounts and a token.
    const created = await database.service.createSession({
      appName: APP,
      userId: USER,
      sessionId: SESSION,
      state: { 'app:mode': 'live', 'user:plan': 'free', step: 1 },
    });
    await appendToCopy(database.service, created, { author: 'agent', actions: { stateDelta: { step: 2 } } });
    expect(created.revision).toBe(REVISION);
    await database.service.editState({ scope: 'app', appName: APP, changes: { banner: 'hi' }, actor: 'ops', reason: 'setup' });
    await accounts.createAccount({ name: 'ada', password: PASSWORD, role: 'admin' });
    await accounts.createAccount({ name: 'sam', password: PASSWORD, role: 'support' });
    await accounts.createToken('sam', 'ci');
  });
  afterAll(() => {
    setServicesForTests({});
  });

  it.each(CASES.map((c) => [c.name, c] as const))('%s', async (_name, c) => {
    const before = await databaseDump(database);
    const result = await c.action(c.input as never);
    expect(result.ok, JSON.stringify(result)).toBe(false);
    if (result.ok) return;
    expect(result.code, result.message).toBe(c.code);
    const text = c.field === undefined ? result.message : result.fieldErrors?.[c.field];
    expect(text, JSON.stringify(result.fieldErrors ?? result.message)).toBeDefined();
    if (typeof c.message === 'string') expect(text).toBe(c.message);
    else expect(text).toMatch(c.message);
    expect(await databaseDump(database)).toEqual(before);
  });

  it('notices a change: the dump comparison above can fail', async () => {
    const before = await databaseDump(database);
    const result = await editState(userEdit({ changes: [{ key: 'noticed', value: 'true' }] }) as never);
    expect(result.ok, JSON.stringify(result)).toBe(true);
    expect(await databaseDump(database)).not.toEqual(before);
  });

  it('stores prototype names, SQL, HTML and control characters in text as data, exactly', async () => {
    const owner = { appName: 'hostile-actions-data', userId: "eve'; --" };
    const session = await database.service.createSession({ ...owner, sessionId: "it's <b>s<b>" });
    const ref = { ...owner, sessionId: session.id };
    const delta =
      '{"__proto__": {"polluted": true}, "constructor": "c", "x\'); DROP TABLE sessions; --": "1\' OR \'1\'=\'1",' +
      ' "<script>alert(1)</script>": "<img src=x onerror=alert(1)>", "user:__proto__": {"isAdmin": true}, "ünïcödé 😀": "\\u2028\\u0000"}';
    const appended = await appendEvent({
      ...ref,
      revision: 0,
      author: '<b>agent</b>',
      invocationId: "'; SELECT pg_sleep(10); --",
      text: 'tab\tNUL\u0000 <script>alert(1)</script>',
      stateDelta: delta,
    });
    expect(appended.ok, JSON.stringify(appended)).toBe(true);
    const edited = await editState({
      scope: 'user',
      appName: owner.appName,
      userId: owner.userId,
      changes: [
        { key: 'constructor', value: '{"prototype": {"polluted": true}}' },
        { key: '<img src=x>', value: '"</script>"' },
      ],
      reason: "<b>why</b>'; DROP TABLE state_changes; --",
    });
    expect(edited.ok, JSON.stringify(edited)).toBe(true);

    const loaded = await database.service.getSession(ref);
    const state = loaded?.state ?? {};
    expect(Object.getOwnPropertyDescriptor(state, '__proto__')?.value).toEqual({ polluted: true });
    expect(state["x'); DROP TABLE sessions; --"]).toBe("1' OR '1'='1");
    expect(state['<script>alert(1)</script>']).toBe('<img src=x onerror=alert(1)>');
    expect(Object.getOwnPropertyDescriptor(state, 'user:__proto__')?.value).toEqual({ isAdmin: true });
    expect(state['user:constructor']).toEqual({ prototype: { polluted: true } });
    expect(state['user:<img src=x>']).toBe('</script>');
    expect(state['ünïcödé 😀']).toBe('\u2028\u0000');
    const event = loaded?.events[0];
    expect(event).toMatchObject({ author: '<b>agent</b>', invocationId: "'; SELECT pg_sleep(10); --" });
    expect(event?.content?.parts).toEqual([{ text: 'tab\tNUL\u0000 <script>alert(1)</script>' }]);
    const [reasoned] = (await database.service.getUserHistory(owner.appName, owner.userId)).items;
    expect(reasoned?.reason).toBe("<b>why</b>'; DROP TABLE state_changes; --");

    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(({} as Record<string, unknown>).isAdmin).toBeUndefined();
    expect(Object.keys(await databaseDump(database))).toEqual(
      expect.arrayContaining(['accounts', 'api_tokens', 'app_state', 'events', 'session_state', 'sessions', 'state_changes', 'user_state']),
    );
  });
});
