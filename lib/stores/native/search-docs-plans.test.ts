// The text index's worst case on PostgreSQL: a text whose every trigram is
// common but which no doc holds ("about message" over docs that all say
// "Message k about order ..."). pg_trgm drops spaces and punctuation, so its
// trigrams matched every doc and each was rechecked: about 1 s at 1,000,000
// event docs. The header find (which never returns events) also rechecked
// every event doc. The index now keeps the trigrams across word breaks and
// holds events apart from the other kinds. A plan check on the rows the scan
// rechecks, not a timing (the bench times it: `npm run bench -- --search`).
import { sqltag as sql, type Sql } from '@prisma/client/runtime/client';
import { describe, expect, it } from 'vitest';
import { testProviders } from '../../testing/databases';
import { uniqueName } from '../../testing/factories';
import { useTestDatabase } from '../../testing/use-test-database';
import { matchingDocs, matchingDocsSql } from './search-docs';

const providers = await testProviders();
const EVENT_DOCS = 20_000;

interface PlanNode {
  'Node Type': string;
  'Actual Rows'?: number;
  'Actual Loops'?: number;
  'Rows Removed by Filter'?: number;
  'Rows Removed by Index Recheck'?: number;
  Plans?: PlanNode[];
}

function nodesOf(node: PlanNode): PlanNode[] {
  return [node, ...(node.Plans ?? []).flatMap(nodesOf)];
}

/** Rows of search_docs the statement read and tested: those it kept, and those its recheck and filter removed. */
function rowsExamined(nodes: PlanNode[]): number {
  return rowsOf(nodes, ['Bitmap Heap Scan', 'Seq Scan', 'Index Scan']);
}

/** Entries the indexes gave (a bitmap index scan's rows), whether or not the heap was then read for them. */
function indexEntries(nodes: PlanNode[]): number {
  return rowsOf(nodes, ['Bitmap Index Scan']);
}

function rowsOf(nodes: PlanNode[], types: string[]): number {
  return nodes
    .filter((node) => types.includes(node['Node Type']))
    .reduce(
      (sum, node) =>
        sum +
        ((node['Actual Rows'] ?? 0) + (node['Rows Removed by Filter'] ?? 0) + (node['Rows Removed by Index Recheck'] ?? 0)) *
          (node['Actual Loops'] ?? 1),
      0,
    );
}

describe.each(providers)('the text index on %s', (provider) => {
  const database = useTestDatabase(provider);

  async function planOf(query: Sql): Promise<PlanNode[]> {
    const rows = await database.db.client.$queryRaw<Record<string, unknown>[]>(sql`EXPLAIN (ANALYZE, FORMAT JSON) ${query}`);
    const cell = Object.values(rows[0] ?? {})[0];
    const plan = (typeof cell === 'string' ? JSON.parse(cell) : cell) as { Plan: PlanNode }[];
    return nodesOf(plan[0]?.Plan as PlanNode);
  }

  async function seed(appName: string): Promise<void> {
    const docs = (kind: string, body: string) =>
      database.db.client.$executeRaw(
        sql`WITH RECURSIVE g (n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM g WHERE n < ${EVENT_DOCS})
            INSERT INTO search_docs (store_id, kind, app_name, user_id, session_id, key, body)
            SELECT 'native', ${kind}, ${appName}, 'u' || (n % 50), 's' || n, CAST(n % 10 AS TEXT), ${body} || n FROM g`,
      );
    await docs('event', 'Message 3 about order session-');
    await docs('state', '{"topic":"refund","note":"see the message about order ');
    const one = (kind: string, key: string, body: string) =>
      database.db.client.$executeRaw(
        sql`INSERT INTO search_docs (store_id, kind, app_name, user_id, session_id, key, body)
            VALUES ('native', ${kind}, ${appName}, 'u', 'odd', ${key}, ${body})`,
      );
    await one('event', '1', 'The roundabout Messages were sent');
    await one('event', '2', 'ABOUT MESSAGE in capitals');
    await one('event', '3', 'about  message, two spaces apart');
    await one('event', '4', 'about-message with a hyphen');
    await one('state', 'n', 'a note about message delivery');
    if (provider === 'postgresql') await database.db.client.$executeRaw(sql`ANALYZE search_docs`);
  }

  it('finds exactly the docs holding the text, case-insensitively, across word breaks', async () => {
    const appName = uniqueName('docs');
    await seed(appName);
    const found = async (kinds: string[], text: string) =>
      (await matchingDocs(database.db.client, provider, 'native', kinds, text, 200, appName))
        .map((doc) => `${doc.kind} ${doc.body}`)
        .sort();
    expect(await found(['event'], 'about message')).toEqual(['event ABOUT MESSAGE in capitals', 'event The roundabout Messages were sent']);
    expect(await found(['state', 'event'], 'About Message')).toEqual([
      'event ABOUT MESSAGE in capitals',
      'event The roundabout Messages were sent',
      'state a note about message delivery',
    ]);
    expect(await found(['event'], 'about-message')).toEqual(['event about-message with a hyphen']);
    expect(await found(['event'], 'order session-1999')).toHaveLength(11);
  });

  it.runIf(provider === 'postgresql')('rechecks only the docs that may hold a text of common trigrams, of the kinds asked', async () => {
    const appName = uniqueName('docs');
    await seed(appName);
    const examined = async (query: Sql) => rowsExamined(await planOf(query));
    // No event says "about message" but for the two above: the events' scan reads those, not the 4,000 others.
    expect(await examined(matchingDocsSql('native', ['event'], 'about message', 50, appName))).toBeLessThan(20);
    // Every event holds "order session": the header find, which never returns events, reads none of them.
    expect(await examined(matchingDocsSql('native', ['session', 'state', 'meta', 'note'], 'order session', 50, appName))).toBeLessThan(20);
  });

  it.runIf(provider === 'postgresql')('narrows an app’s events by the app within the index, not after it', async () => {
    const big = uniqueName('big');
    await seed(big);
    const small = uniqueName('small');
    await database.db.client.$executeRaw(
      sql`WITH RECURSIVE g (n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM g WHERE n < 1000)
          INSERT INTO search_docs (store_id, kind, app_name, user_id, session_id, key, body)
          SELECT 'native', 'event', ${small}, 'u', 's', CAST(n AS TEXT), 'Taking order ' || n FROM g
          UNION ALL SELECT 'native', 'event', ${small}, 'u', 's', '0', 'Order session one'`,
    );
    await database.db.client.$executeRaw(sql`ANALYZE search_docs`);
    // Every event of the big app holds "order session": the small app's search takes none of them from the index.
    const query = matchingDocsSql('native', ['event'], 'order session', 50, small);
    expect(indexEntries(await planOf(query))).toBeLessThan(20);
    expect((await database.db.client.$queryRaw<{ body: string }[]>(query)).map((doc) => doc.body)).toEqual(['Order session one']);
  });
});
