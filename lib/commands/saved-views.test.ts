// Saved views of session lists in Statehouse's own database: saved, listed
// per account and per list, replaced by name, renamed and deleted, on both
// databases Statehouse runs on.
import { describe, expect, it } from 'vitest';
import { SqlSavedViewStore } from '../stores/saved-views/sql-saved-views';
import { NATIVE_STORE_ID } from '../session-service/notes';
import { MAX_VIEWS_PER_LIST } from '../session-service/saved-views';
import { useTestDatabase } from '../testing/use-test-database';
import { deleteViewCommand, renameViewCommand, saveViewCommand, type ViewContext } from './saved-views';
import { viewQueryOf } from '../data/list-params';

describe('viewQueryOf', () => {
  it('keeps the list’s own parameters, in a fixed order, without page or blank ones', () => {
    expect(viewQueryOf('?page=3&sort=events&key=topic&op=contains&value=refu&tab=users&q=&junk=1&errors=1')).toBe(
      'key=topic&op=contains&value=refu&errors=1&sort=events',
    );
    expect(viewQueryOf('')).toBe('');
  });
});

describe.each(['sqlite', 'postgresql'] as const)('saved views on %s', (provider) => {
  const database = useTestDatabase(provider);
  const context = (storeId = NATIVE_STORE_ID): ViewContext => ({ views: new SqlSavedViewStore(database.db.client), storeId });
  const appList = { storeId: NATIVE_STORE_ID, appName: 'views-app', userId: '' };

  it('saves per account and per list, replaces by name, renames and deletes only the account’s own', async () => {
    const saved = await saveViewCommand(context(), 'ann', {
      appName: 'views-app',
      name: '  Refunds  ',
      query: 'key=topic&value=refund&page=2',
    });
    expect(saved).toMatchObject({ ok: true, data: { account: 'ann', name: 'Refunds', query: 'key=topic&value=refund', userId: '' } });
    await saveViewCommand(context(), 'ann', { appName: 'views-app', userId: 'carol', name: 'Refunds', query: 'sort=oldest' });
    await saveViewCommand(context(), 'bob', { appName: 'views-app', name: 'Mine', query: 'errors=1' });
    await saveViewCommand(context('agents'), 'ann', { appName: 'views-app', name: 'Elsewhere', query: '' });

    const views = context().views;
    expect((await views.list('ann', appList)).map((view) => view.name)).toEqual(['Refunds']);
    expect((await views.list('bob', appList)).map((view) => view.name)).toEqual(['Mine']);
    expect((await views.list('ann', { ...appList, userId: 'carol' })).map((view) => view.query)).toEqual(['sort=oldest']);
    expect((await views.list('ann', { ...appList, storeId: 'agents' })).map((view) => view.name)).toEqual(['Elsewhere']);

    // The same name again replaces the view's query.
    const again = await saveViewCommand(context(), 'ann', { appName: 'views-app', name: 'Refunds', query: 'key=topic&value=refu' });
    expect(again).toMatchObject({ ok: true, data: { id: saved.ok ? saved.data.id : 0, query: 'key=topic&value=refu' } });

    const id = saved.ok ? saved.data.id : 0;
    await saveViewCommand(context(), 'ann', { appName: 'views-app', name: 'Errors', query: 'errors=1' });
    expect(await renameViewCommand(context(), 'ann', { id, name: 'Errors' })).toMatchObject({ ok: false, code: 'ALREADY_EXISTS' });
    expect(await renameViewCommand(context(), 'bob', { id, name: 'Stolen' })).toMatchObject({ ok: false, code: 'NOT_FOUND' });
    expect(await renameViewCommand(context(), 'ann', { id, name: 'Refund search' })).toMatchObject({
      ok: true,
      data: { name: 'Refund search' },
    });
    expect(await deleteViewCommand(context(), 'bob', { id })).toMatchObject({ ok: false, code: 'NOT_FOUND' });
    expect(await deleteViewCommand(context(), 'ann', { id })).toMatchObject({ ok: true, data: { name: 'Refund search' } });
    expect((await views.list('ann', appList)).map((view) => view.name)).toEqual(['Errors']);
  });

  it('refuses a blank or control-character name, a malformed list, and more than the views a list keeps', async () => {
    expect(await saveViewCommand(context(), 'ann', { appName: 'views-app', name: '  ', query: '' })).toMatchObject({
      ok: false,
      fieldErrors: { name: expect.any(String) },
    });
    expect(await saveViewCommand(context(), 'ann', { appName: 'views-app', name: 'a\u0007b', query: '' })).toMatchObject({
      ok: false,
      fieldErrors: { name: expect.any(String) },
    });
    expect(await saveViewCommand(context(), 'ann', { appName: '', name: 'x', query: '' })).toMatchObject({
      ok: false,
      fieldErrors: { appName: expect.any(String) },
    });
    for (let index = 0; index < MAX_VIEWS_PER_LIST; index += 1) {
      const result = await saveViewCommand(context(), 'full', { appName: 'views-app', name: `v${index}`, query: '' });
      expect(result.ok).toBe(true);
    }
    expect(await saveViewCommand(context(), 'full', { appName: 'views-app', name: 'one more', query: '' })).toMatchObject({
      ok: false,
      code: 'INVALID_INPUT',
    });
  });
});
