// The routes behind the session page's timeline, against SQLite and PostgreSQL.
import { describe, expect, it } from 'vitest';
import type { EventPosition, TimelineItem } from '@/lib/data/session-views';
import { call, detailOf } from '@/lib/testing/http';
import type { Page } from '@/lib/session-service/types';
import { testProviders } from '@/lib/testing/databases';
import { uniqueName } from '@/lib/testing/factories';
import { useTestDatabase } from '@/lib/testing/use-test-database';
import * as oneEvent from './apps/[app]/users/[user]/sessions/[id]/events/[seq]/route';
import * as timeline from './apps/[app]/users/[user]/sessions/[id]/timeline/route';
import * as position from './apps/[app]/users/[user]/sessions/[id]/timeline/position/route';
import { appendEvent } from '../../lib/session-service/append';

const providers = await testProviders();

describe.each(providers)('session timeline routes on %s', (provider) => {
  const database = useTestDatabase(provider, { serveRoutes: true });

  /** Five events: two invocations, two authors, deltas in every tier. */
  async function seed() {
    const app = uniqueName('app');
    const session = await database.service.createSession({ appName: app, userId: 'u', sessionId: 's', state: { 'user:plan': 'free' } });
    const append = (author: string, invocationId: string, stateDelta: Record<string, string | number> = {}) =>
      appendEvent(database.service, session, { author, invocationId, actions: { stateDelta } });
    await append('user', 'i1');
    await append('agent', 'i1', { 'user:plan': 'pro', topic: 'tea' });
    await append('agent', 'i1', { 'app:tone': 'warm' });
    await append('user', 'i2');
    await append('agent', 'i2', { topic: 'coffee', 'user:plan': 'team' });
    return { app, user: 'u', id: 's' };
  }

  it('GET .../timeline pages events with their changes and filters them', async () => {
    const params = await seed();
    const all = await call(timeline.GET, 'GET', { params });
    expect(all.status).toBe(200);
    const page = all.json as Page<TimelineItem>;
    expect(page.total).toBe(5);
    expect(page.items.map((item) => item.seq)).toEqual([1, 2, 3, 4, 5]);
    expect(page.items[1]?.changes.map((c) => [c.scope, c.key, c.oldValue, c.newValue])).toEqual([
      ['user', 'plan', 'free', 'pro'],
      ['session', 'topic', undefined, 'tea'],
    ]);
    expect(page.items[0]?.changes).toEqual([]);

    const second = await call(timeline.GET, 'GET', { params, query: 'offset=2&limit=2' });
    expect((second.json as Page<TimelineItem>).items.map((item) => item.seq)).toEqual([3, 4]);

    const touched = await call(timeline.GET, 'GET', { params, query: 'key=user:plan' });
    expect((touched.json as Page<TimelineItem>).items.map((item) => item.seq)).toEqual([2, 5]);
    const byAuthor = await call(timeline.GET, 'GET', { params, query: 'author=user&invocation_id=i2' });
    expect((byAuthor.json as Page<TimelineItem>).items.map((item) => item.seq)).toEqual([4]);
    const after = await call(timeline.GET, 'GET', { params, query: 'after=3' });
    expect((after.json as Page<TimelineItem>).items.map((item) => item.seq)).toEqual([4, 5]);
  });

  it('GET .../timeline answers 404 for an unknown session and 400 for bad pages', async () => {
    const params = await seed();
    const missing = await call(timeline.GET, 'GET', { params: { ...params, id: 'nope' } });
    expect(missing.status).toBe(404);
    expect(detailOf(missing)).toBe('Session nope not found.');
    const bad = await call(timeline.GET, 'GET', { params, query: 'limit=0' });
    expect(bad.status).toBe(400);
    expect(detailOf(bad)).toMatch(/^limit: /);
  });

  it('GET .../events/{seq} gives one event with its changes, 404 past the end', async () => {
    const params = await seed();
    const found = await call(oneEvent.GET, 'GET', { params: { ...params, seq: '5' } });
    expect(found.status).toBe(200);
    const item = found.json as TimelineItem;
    expect(item.seq).toBe(5);
    expect(item.event.invocationId).toBe('i2');
    expect(item.changes.map((c) => [c.key, c.oldValue, c.newValue])).toEqual([
      ['plan', 'pro', 'team'],
      ['topic', 'tea', 'coffee'],
    ]);

    const past = await call(oneEvent.GET, 'GET', { params: { ...params, seq: '6' } });
    expect(past.status).toBe(404);
    expect(detailOf(past)).toBe('Event 6 not found in session s.');
    const bad = await call(oneEvent.GET, 'GET', { params: { ...params, seq: '0' } });
    expect(bad.status).toBe(400);
    expect(detailOf(bad)).toMatch(/^seq: /);
    const noSession = await call(oneEvent.GET, 'GET', { params: { ...params, id: 'nope', seq: '1' } });
    expect(noSession.status).toBe(404);
  });

  it('GET .../timeline/position locates an event among the filtered events', async () => {
    const params = await seed();
    const locate = async (query: string) => (await call(position.GET, 'GET', { params, query })).json as EventPosition;
    expect(await locate('seq=4')).toEqual({ seq: 4, index: 3, total: 5 });
    expect(await locate('seq=5&author=agent')).toEqual({ seq: 5, index: 2, total: 3 });
    expect(await locate('seq=4&author=agent')).toEqual({ seq: 4, index: null, total: 3 });
    expect(await locate('seq=9')).toEqual({ seq: 9, index: null, total: 5 });

    const missingSeq = await call(position.GET, 'GET', { params });
    expect(missingSeq.status).toBe(400);
    expect(detailOf(missingSeq)).toBe('seq: is required');
  });
});
