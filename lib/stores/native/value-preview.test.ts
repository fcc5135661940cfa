// Previews cut by the database: once the page names where each whole value
// is (cutValue), a preview reads exactly as the whole value cut in the
// process, on both databases, while only its short parts leave the database.
import { sqltag as sql } from '@prisma/client/runtime/client';
import { describe, expect, it } from 'vitest';
import { cutValue } from '../../data/value-cut';
import type { Provider } from '../../db';
import type { JsonValue } from '../../session-service/types';
import { useTestDatabase } from '../../testing/use-test-database';
import { readPreviews } from './value-preview';

const MiB = 1024 * 1024;
const source = (pointer: string) => `/api/x/value?pointer=${pointer}`;

const values: Record<string, JsonValue> = {
  'a long string': 'é'.repeat(3 * MiB),
  'a short object': { a: 1, b: [true, false, null], c: 'x' },
  'an event with a long text part': {
    id: 'e1',
    timestamp: 1732581234.1234567,
    content: { role: 'model', parts: [{ text: `event ${'w'.repeat(2 * MiB)}` }, { functionCall: { name: 'f', args: { n: 1e21 } } }] },
    actions: { stateDelta: { big: 'v'.repeat(MiB), small: 2.5, 'a/b~c': { x: [1, 2] } } },
  },
  'a long list of many members': Array.from({ length: 20_000 }, (_, i) => `note ${i}`),
  'a long object of few members, some long': { one: 'o'.repeat(40_000), two: { nested: ['t'.repeat(9000), 3] }, three: 0.1 },
  'few members each too short to cut, together too long': Object.fromEntries(
    Array.from({ length: 40 }, (_, i) => [`k${i}`, 'm'.repeat(1000)]),
  ),
  'a string at the cut limit': 's'.repeat(8 * 1024),
  'an object holding a long string beside many short ones': {
    ...Object.fromEntries(Array.from({ length: 100 }, (_, i) => [`k${i}`, i])),
    long: 'l'.repeat(50_000),
  },
};

describe.each<Provider>(['sqlite', 'postgresql'])('value previews on %s', (provider) => {
  const database = useTestDatabase(provider);

  it.each(Object.keys(values))('read %s as the page would cut it whole', async (name) => {
    const whole = values[name]!;
    const text = JSON.stringify(whole);
    const previews = await readPreviews(database.db.client, provider, ['v'], () => sql`SELECT 'v' AS owner, ${text} AS doc`);
    const preview = previews.get('v');
    expect(preview).toBeDefined();
    expect(JSON.stringify(preview).length).toBeLessThan(64 * 1024);
    const expected = cutValue(whole, source);
    const actual = cutValue(preview!, source);
    expect(actual).toEqual(expected);
  });
});
