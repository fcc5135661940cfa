// Large values on the session page: cut to a bounded preview that names
// where the whole is, and the page's data bounded whatever the session holds.
import { dehydrate, QueryClient } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import { editStateCommand } from '../commands/edit-state';
import { prefetchSessionPage } from '../queries/session-prefetch';
import { parseSessionUrl } from '../queries/session-url';
import { call } from '../testing/http';
import { useTestDatabase } from '../testing/use-test-database';
import * as value from '../../app/api/apps/[app]/users/[user]/sessions/[id]/value/route';
import * as timeline from '../../app/api/apps/[app]/users/[user]/sessions/[id]/timeline/route';
import { CUT_CONTAINER_CHARS, cutValue, parseCut, PREVIEW_CHARS, valueAt } from './value-cut';

const MiB = 1024 * 1024;
const source = (pointer: string) => `/api/x/value?pointer=${pointer}`;

describe('cutValue', () => {
  it('cuts long strings and containers that stay too long, keeping everything small as it is', () => {
    const big = 'x'.repeat(MiB);
    const value = { small: 'hi', big, list: Array.from({ length: 5000 }, (_, index) => `item ${index}`), nested: { 'a/b': [1, big] } };
    const cut = cutValue(value, source) as Record<string, unknown>;
    expect(cut.small).toBe('hi');
    expect(parseCut(cut.big as string)).toEqual({
      length: MiB,
      source: '/api/x/value?pointer=/big',
      json: false,
      preview: big.slice(0, PREVIEW_CHARS),
    });
    expect(parseCut(cut.list as string)).toMatchObject({ json: true, source: '/api/x/value?pointer=/list' });
    expect(parseCut((cut.nested as { 'a/b': unknown[] })['a/b'][1] as string)).toMatchObject({
      source: '/api/x/value?pointer=/nested/a~1b/1',
    });
    expect(JSON.stringify(cut).length).toBeLessThan(CUT_CONTAINER_CHARS);
    expect(valueAt(value, '/nested/a~1b/0')).toBe(1);
    expect(parseCut('an ordinary string')).toBeNull();
  });
});

describe('the session page with large values', () => {
  const database = useTestDatabase('sqlite', { serveRoutes: true });
  const ref = { appName: 'big', userId: 'u', sessionId: 's' };

  it('prefetches a bounded amount of data whatever the values, and serves each whole value on demand', async () => {
    const huge = (n: number) => `${n}:${'y'.repeat(2 * MiB - 10)}`;
    await database.service.createSession({
      ...ref,
      state: { 'user:profile': huge(0), notes: Array.from({ length: 20_000 }, (_, i) => `note ${i}`) },
    });
    for (let n = 1; n <= 30; n += 1) {
      await database.service.append(ref, {
        author: 'agent',
        content: { role: 'model', parts: [{ text: huge(n) }, { functionCall: { name: 'f', args: { blob: huge(n) } } }] },
        actions: { stateDelta: { last: huge(n) } },
      });
    }
    const queryClient = new QueryClient();
    await prefetchSessionPage(
      queryClient,
      database.service,
      ref,
      parseSessionUrl(() => null),
    );
    const bytes = JSON.stringify(dehydrate(queryClient)).length;
    // 30 events of 3 x 2 MiB each, a 2 MiB state value and a 20,000-item list: about 190 MB uncut.
    expect(bytes).toBeLessThan(1.5 * MiB);

    // The dashboard route cuts the same way when asked; each cut value names where its whole is.
    const page = await call(timeline.GET, 'GET', { params: { app: 'big', user: 'u', id: 's' }, query: 'preview=1&limit=50' });
    expect(page.text.length).toBeLessThan(1.5 * MiB);
    const first = (page.json as { items: { event: { content: { parts: { text: string }[] } } }[] }).items[0]!;
    const cut = parseCut(first.event.content.parts[0]!.text);
    expect(cut).toMatchObject({ length: 2 * MiB - 8 });
    const whole = await call(value.GET, 'GET', { params: { app: 'big', user: 'u', id: 's' }, query: cut!.source.split('?')[1] });
    expect(whole.status, whole.text).toBe(200);
    expect(whole.json).toEqual({ value: huge(1) });
    // Without preview=1 the route answers whole values, as before.
    const full = await call(timeline.GET, 'GET', { params: { app: 'big', user: 'u', id: 's' }, query: 'limit=1' });
    expect((full.json as { items: { event: { content: { parts: { text: string }[] } } }[] }).items[0]!.event.content.parts[0]!.text).toBe(
      huge(1),
    );
  });

  it('refuses to save a cut preview as a value, or to compare with one', async () => {
    const shown = cutValue('z'.repeat(MiB), source) as string;
    const edit = (change: object) =>
      editStateCommand(database.service, 'support', { scope: 'user', appName: 'big', userId: 'u', changes: [change], reason: 'r' });
    expect(await edit({ key: 'profile', value: '"new"', seen: { present: true, value: shown } })).toMatchObject({
      ok: false,
      code: 'INVALID_INPUT',
    });
    expect(await edit({ key: 'profile', value: JSON.stringify(shown) })).toMatchObject({ ok: false, code: 'INVALID_INPUT' });
  });
});
