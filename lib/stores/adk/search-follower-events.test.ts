// Events an agent adds to a session its store's search index already holds,
// written by adk-js itself (its DatabaseSessionService): one appended after
// the others, and one whose timestamp puts it between two earlier ones (an
// agent whose clock is behind, or events written out of order), which shifts
// the places of those after it. Each is found by the event search once the
// follower has read the session again, without indexing the store anew.
import { join } from 'node:path';
import { createEvent } from '@google/adk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adkJsService, writeAdkJsFixture, type AdkJsFixture } from '../../testing/adk-fixtures/adk-js';
import { useSearchScratch } from '../../testing/use-search-scratch';
import { openAdkStore, type AdkSessionStore } from '.';
import { StoreSearchIndex } from './search-index-log';
import { StoreSessionLog } from './session-log';

describe('the search index of an adk-js store follows events added to a session it holds', () => {
  const scratch = useSearchScratch('follower-events');
  let url: string;
  let fixture: AdkJsFixture;
  let store: AdkSessionStore;

  beforeAll(async () => {
    url = `file:${join(scratch.dir, 'adk.db')}`;
    fixture = await writeAdkJsFixture(url);
    store = await openAdkStore(url, {
      id: 'adk-js-agent',
      searchIndex: new StoreSearchIndex(scratch.ownDb.client, scratch.ownDb.provider),
      sessionLog: new StoreSessionLog(scratch.ownDb.client, scratch.ownDb.provider),
      follow: { background: false },
    });
    await store.searchFollower?.settle();
  });

  afterAll(async () => {
    await store?.close();
  });

  const places = async (text: string) => {
    const found = await store.searchEvents?.({ appName: 'shop', text });
    return found && 'hits' in found ? found.hits.map((hit) => [hit.sessionId, hit.seq]) : found;
  };

  async function agentAppends(text: string, timestamp: number): Promise<void> {
    const service = await adkJsService(url);
    try {
      const session = await service.getSession({ appName: 'shop', userId: 'alice', sessionId: 'alice-1' });
      if (!session) throw new Error('alice-1 is gone');
      await service.appendEvent({
        session,
        event: createEvent({ author: 'shopkeeper', invocationId: 'inv-3', timestamp, content: { role: 'model', parts: [{ text }] } }),
      });
    } finally {
      await service.close();
    }
  }

  it('finds an event appended after the first fill', async () => {
    expect(await places('anything else')).toEqual([['alice-1', 5]]);
    const last = fixture.aliceTimes[fixture.aliceTimes.length - 1] ?? 0;
    await agentAppends('Your Quetzal parcel left the depot', last + 2_000);
    await store.searchFollower?.settle();
    expect(await places('quetzal')).toEqual([['alice-1', 6]]);
  });

  it('finds an event placed between earlier ones, and the ones after it at their new places', async () => {
    const [, , , fourth = 0, fifth = 0] = fixture.aliceTimes;
    await agentAppends('An Axolotl mug was added', (fourth + fifth) / 2);
    await store.searchFollower?.settle();
    expect(await places('axolotl')).toEqual([['alice-1', 5]]);
    expect(await places('anything else')).toEqual([['alice-1', 6]]);
    expect(await places('quetzal')).toEqual([['alice-1', 7]]);
  });
});
