// Whether "10x adk-js's database service" can be reached on this machine by
// any store that keeps what it is given: adk-js's DatabaseSessionService
// (create and append, on PostgreSQL) timed in one run, interleaved, with the
// least a durable write can be: one row INSERTed and committed, one round
// trip through node-postgres, no other work. When adk-js takes less than 10
// times that floor, no durable store is 10x faster than adk-js here.
// Run: `node --import tsx bench/commit-floor.ts [rounds]` (PostgreSQL at
// BENCH_POSTGRES_URL, else the local test server).
import pg from 'pg';
import { appendEvent, createState } from './data';
import { adkDatabaseTarget } from './implementations/adk-database';
import { createScratch } from './scratch';
import { percentile } from './stats';

const ROUNDS = Number(process.argv[2] ?? 500);
const server = process.env.BENCH_POSTGRES_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';

async function timed(run: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await run();
  return performance.now() - started;
}

async function main(): Promise<void> {
  const scratch = createScratch(`floor_${Date.now().toString(36)}`, server);
  try {
    const adk = await adkDatabaseTarget(await scratch.url('postgresql', 'adk'));
    const floor = new pg.Client({ connectionString: await scratch.url('postgresql', 'floor') });
    await floor.connect();
    await floor.query('CREATE TABLE rows (id BIGSERIAL PRIMARY KEY, body TEXT NOT NULL)');
    const insert = { name: 'floor_insert', text: 'INSERT INTO rows (body) VALUES ($1)' };
    const times = { adkCreate: [] as number[], adkAppend: [] as number[], floor: [] as number[] };
    const appendKey = { appName: 'floor', userId: 'u', sessionId: 'append' };
    await adk.create(appendKey, createState(0));
    for (let i = 0; i < ROUNDS; i++) {
      const key = { appName: 'floor', userId: `u${i % 10}`, sessionId: `s${i}` };
      times.adkCreate.push(await timed(() => adk.create(key, createState(i))));
      times.floor.push(await timed(() => floor.query({ ...insert, values: [JSON.stringify(createState(i))] })));
      times.adkAppend.push(await timed(() => adk.append(appendKey, appendEvent(i))));
      times.floor.push(await timed(() => floor.query({ ...insert, values: [JSON.stringify(appendEvent(i))] })));
    }
    await floor.end();
    await adk.close();
    const p50 = (values: number[]) => percentile(values, 50);
    const floorP50 = p50(times.floor);
    console.log(
      `${ROUNDS} rounds, p50 ms (load ${(await import('node:os'))
        .loadavg()
        .map((x) => x.toFixed(2))
        .join(' ')})`,
    );
    console.log(`durable one-row INSERT through node-postgres: ${floorP50.toFixed(3)}`);
    for (const [name, values] of [
      ['adk-js create', times.adkCreate],
      ['adk-js append', times.adkAppend],
    ] as const) {
      const ms = p50(values);
      console.log(
        `${name}: ${ms.toFixed(3)} ms = ${(ms / floorP50).toFixed(2)}x the floor; 10x adk-js would be ${(ms / 10).toFixed(3)} ms`,
      );
    }
  } finally {
    await scratch.dropAll();
  }
}

void main();
