// Events an agent adds while no Statehouse server follows its store: the
// follower keeps how far it read the events table with its progress, and
// after a restart reads on from there. adk-js stamps a session's update time
// with the event's own time, so an event timestamped well before the newest
// session's update (an imported or replayed one) is seen only that way.
import { join } from 'node:path';
import { createEvent } from '@google/adk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adkJsService, writeAdkJsFixture, type AdkJsFixture } from '../../testing/adk-fixtures/adk-js';
import { useSearchScratch } from '../../testing/use-search-scratch';
import { openAdkStore, type AdkSessionStore } from '.';
import { FOLLOW_MARGIN_SECONDS } from './base/search-follower';
import { StoreSearchIndex } from './search-index-log';
import { StoreSessionLog } from './session-log';

describe('the search index of an adk-js store, after a restart', () => {
  const scratch = useSearchScratch('follower-resume');
  let url: string;
  let fixture: AdkJsFixture;
  let store: AdkSessionStore | undefined;

  const open = () =>
    openAdkStore(url, {
      id: 'adk-js-agent',
      searchIndex: new StoreSearchIndex(scratch.ownDb.client, scratch.ownDb.provider),
      sessionLog: new StoreSessionLog(scratch.ownDb.client, scratch.ownDb.provider),
      follow: { background: false },
    });

  beforeAll(async () => {
    url = `file:${join(scratch.dir, 'adk.db')}`;
    fixture = await writeAdkJsFixture(url);
  });

  afterAll(async () => {
    await store?.close();
  });

  it('finds an event the agent appended, with an old timestamp, while no server followed the store', async () => {
    store = await open();
    await store.searchFollower?.settle();
    await store.close();
    store = undefined;

    const service = await adkJsService(url);
    try {
      const newest = Math.max(
        ...(await Promise.all(
          [fixture.alice, fixture.bob, fixture.other].map(async ({ appName, userId, id }) => {
            const session = await service.getSession({ appName, userId, sessionId: id });
            return session?.lastUpdateTime ?? 0;
          }),
        )),
      );
      const session = await service.getSession({ appName: 'shop', userId: 'alice', sessionId: 'alice-1' });
      if (!session) throw new Error('alice-1 is gone');
      const last = fixture.aliceTimes[fixture.aliceTimes.length - 1] ?? 0;
      // Behind the newest session's update by more than the follower's margin: its update time says nothing.
      expect(newest - (last + 1_000)).toBeGreaterThan(FOLLOW_MARGIN_SECONDS * 1_000);
      await service.appendEvent({
        session,
        event: createEvent({
          author: 'shopkeeper',
          invocationId: 'inv-replayed',
          timestamp: last + 1_000,
          content: { role: 'model', parts: [{ text: 'A Pangolin lamp was replayed' }] },
        }),
      });
    } finally {
      await service.close();
    }

    store = await open();
    await store.searchFollower?.settle();
    const found = await store.searchEvents?.({ appName: 'shop', text: 'pangolin' });
    expect(found && 'hits' in found ? found.hits.map((hit) => [hit.sessionId, hit.seq]) : found).toEqual([['alice-1', 6]]);
  });
});
