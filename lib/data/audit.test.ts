// The audit log's download: the page's filters, JSON or CSV, CSV fields
// quoted and spreadsheet formulas defused.
import { describe, expect, it } from 'vitest';
import { call } from '../testing/http';
import { useTestDatabase } from '../testing/use-test-database';
import * as audit from '../../app/api/audit/route';
import { auditCsv } from './audit';
import { auditQueryOf, secondsOf } from './audit-params';

describe('the audit export', () => {
  const database = useTestDatabase('sqlite', { serveRoutes: true });

  it('answers the filtered log as JSON and as CSV', async () => {
    await database.service.createSession({ appName: 'exp', userId: 'u', sessionId: 's' });
    await database.service.editState({
      appName: 'exp',
      userId: 'u',
      scope: 'user',
      changes: { note: '=HYPERLINK("x")' },
      actor: 'ann',
      reason: 'a, "quoted" reason',
    });
    await database.service.editState({ appName: 'exp', userId: 'u', scope: 'user', changes: { other: 1 }, actor: 'bob', reason: 'r' });
    const asJson = await call(audit.GET, 'GET', { query: 'actor=ann' });
    expect(asJson.status, asJson.text).toBe(200);
    expect(asJson.json).toMatchObject({
      total: 1,
      truncated: false,
      items: [{ actor: 'ann', key: 'note', newValue: '"=HYPERLINK(\\"x\\")"' }],
    });
    const asCsv = await call(audit.GET, 'GET', { query: 'format=csv&app=exp' });
    expect(asCsv.status).toBe(200);
    const lines = asCsv.text.trim().split('\r\n');
    expect(lines).toHaveLength(3);
    expect(lines[0]).toBe('time,actor,action,source,app,user,session,scope,key,old_value,new_value,reason,detail');
    expect(lines[2]).toContain(',ann,edit,edit,exp,u,,user,note,,"""=HYPERLINK(\\""x\\"")""","a, ""quoted"" reason",');
    expect((await call(audit.GET, 'GET', { query: 'format=xml' })).status).toBe(400);
  });

  it('defuses formulas and reads typed times as UTC', () => {
    const record = {
      id: 'x',
      source: 'edit',
      action: 'edit',
      time: 0,
      actor: '=cmd',
      appName: 'a',
      userId: '',
      sessionId: '',
      scope: null,
      key: null,
      oldValue: null,
      newValue: null,
      reason: null,
      detail: null,
    } as const;
    expect(auditCsv([record]).split('\r\n')[1]).toMatch(/^1970-01-01T00:00:00.000Z,'=cmd,/);
    expect(secondsOf('2026-11-25')).toBe(Date.UTC(2026, 10, 25) / 1000);
    expect(secondsOf('2026-11-25', true)).toBeCloseTo(Date.UTC(2026, 10, 26) / 1000, 2);
    expect(secondsOf('2026-11-25T10:30')).toBe(Date.UTC(2026, 10, 25, 10, 30) / 1000);
    expect(auditQueryOf({ since: 'yesterday', actor: 'ann' }).filters).toEqual({ actor: 'ann' });
  });
});
