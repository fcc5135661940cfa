// Where the time goes: statements and transactions per operation (Statehouse
// and the raw floor count them), and the fixed cost of one statement and of
// one transaction through Prisma versus the driver alone.
import Database from 'better-sqlite3';
import pg from 'pg';
import { appendEvent, createState } from './data';
import { countsOf } from './implementations';
import type { BenchTarget, Group, ImplName } from './implementations/types';
import type { SqlClient } from '../lib/db/sql';
import { median } from './stats';

export interface StatementProfile {
  group: Group;
  impl: ImplName;
  operation: 'create' | 'append' | 'get-recent';
  statementsPerOp: number;
  transactionsPerOp: number;
}

const PROFILE_APP = 'bench-profile';
const PROFILE_OPS = 20;

/** Counts per operation over a fresh session: creates, appends (same deltas as the append workload), recent gets. */
export async function statementProfile(target: BenchTarget, group: Group): Promise<StatementProfile[]> {
  const counts = countsOf(target);
  if (!counts) return [];
  const profile: StatementProfile[] = [];
  const measure = async (operation: StatementProfile['operation'], op: (i: number) => Promise<unknown>) => {
    const before = { ...counts };
    for (let i = 0; i < PROFILE_OPS; i++) await op(i);
    profile.push({
      group,
      impl: target.impl,
      operation,
      statementsPerOp: (counts.statements - before.statements) / PROFILE_OPS,
      transactionsPerOp: (counts.transactions - before.transactions) / PROFILE_OPS,
    });
  };
  const key = { appName: PROFILE_APP, userId: 'pu', sessionId: `p-${Date.now()}` };
  await measure('create', (i) => target.create({ ...key, sessionId: `${key.sessionId}-${i}` }, createState(i)));
  await measure('append', (i) => target.append({ ...key, sessionId: `${key.sessionId}-0` }, appendEvent(i)));
  await measure('get-recent', () => target.get({ ...key, sessionId: `${key.sessionId}-0` }, 20));
  for (let i = 0; i < PROFILE_OPS; i++) target.forget({ ...key, sessionId: `${key.sessionId}-${i}` });
  return profile;
}

export interface QueryOverhead {
  group: Group;
  /**
   * Median microseconds of `SELECT 1`, alone and in a transaction of its
   * own: through a PrismaClient, through the driver adapter as Statehouse
   * uses it (lib/adapter-sql-client.ts), and through the driver alone.
   */
  clientQueryUs: number;
  clientTransactionUs: number;
  adapterQueryUs: number;
  adapterTransactionUs: number;
  driverQueryUs: number;
  driverTransactionUs: number;
}

const OVERHEAD_SAMPLES = 300;

async function sampleUs(fn: () => PromiseLike<unknown>): Promise<number> {
  for (let i = 0; i < 20; i++) await fn();
  const samples: number[] = [];
  for (let i = 0; i < OVERHEAD_SAMPLES; i++) {
    const start = performance.now();
    await fn();
    samples.push((performance.now() - start) * 1000);
  }
  return median(samples);
}

async function prismaClientCosts(url: string): Promise<{ clientQueryUs: number; clientTransactionUs: number }> {
  const { adapterFactoryFor, providerOf } = await import('../lib/db');
  const adapter = adapterFactoryFor(url);
  // Both generated clients have the same raw-SQL surface; SqlClient is that surface.
  const client = (providerOf(url) === 'sqlite'
    ? new (await import('../lib/generated/sqlite/client')).PrismaClient({ adapter })
    : new (await import('../lib/generated/postgresql/client')).PrismaClient({ adapter })) as unknown as SqlClient & {
    $disconnect(): Promise<void>;
  };
  try {
    return {
      clientQueryUs: await sampleUs(() => client.$queryRaw`SELECT 1`),
      clientTransactionUs: await sampleUs(() => client.$transaction(async (tx) => tx.$queryRaw`SELECT 1`)),
    };
  } finally {
    await client.$disconnect();
  }
}

/** Fixed per-statement and per-transaction cost on a database that exists (the Statehouse scratch database). */
export async function queryOverhead(group: Group, url: string): Promise<QueryOverhead> {
  const { openDatabase } = await import('../lib/db');
  const client = await prismaClientCosts(url);
  const db = await openDatabase(url);
  let adapterQueryUs: number;
  let adapterTransactionUs: number;
  try {
    adapterQueryUs = await sampleUs(() => db.client.$queryRaw`SELECT 1`);
    adapterTransactionUs = await sampleUs(() => db.client.$transaction(async (tx) => tx.$queryRaw`SELECT 1`));
  } finally {
    await db.close();
  }
  if (group === 'sqlite') {
    const sqlite = new Database(url.slice('file:'.length));
    try {
      const select = sqlite.prepare('SELECT 1');
      const inTransaction = sqlite.transaction(() => select.get());
      return {
        group,
        ...client,
        adapterQueryUs,
        adapterTransactionUs,
        driverQueryUs: await sampleUs(async () => select.get()),
        driverTransactionUs: await sampleUs(async () => inTransaction.immediate()),
      };
    } finally {
      sqlite.close();
    }
  }
  const pool = new pg.Pool({ connectionString: url, max: 10 });
  try {
    return {
      group,
      ...client,
      adapterQueryUs,
      adapterTransactionUs,
      driverQueryUs: await sampleUs(() => pool.query('SELECT 1')),
      driverTransactionUs: await sampleUs(async () => {
        const client = await pool.connect();
        try {
          await client.query('BEGIN');
          await client.query('SELECT 1');
          await client.query('COMMIT');
        } finally {
          client.release();
        }
      }),
    };
  } finally {
    await pool.end();
  }
}
