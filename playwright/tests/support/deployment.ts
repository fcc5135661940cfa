// A Statehouse deployment of its own for the kit's suite, as a team would run
// a shared one: protected, reached with an API token, on PostgreSQL when the
// test server is reachable (else a SQLite file), on the build the e2e run made.
// Its database is the suite's alone, so whole-table counts before and after a run mean something.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createRequire } from 'node:module';
import { raw, sqltag as sql } from '@prisma/client/runtime/client';
import { openDatabase, type Provider } from '../../../lib/db';
import { createMigratedDatabase, testProviders, type ScratchDatabase } from '../../../lib/testing/databases';
import { projectRoot } from '../../../e2e/support/database';

export interface Deployment {
  provider: Provider;
  url: string;
  token: string;
  /** Rows per table, migrations' bookkeeping aside. */
  tableCounts(): Promise<Record<string, number>>;
  stop(): Promise<void>;
}

const BOOKKEEPING = new Set(['_prisma_migrations']);

function accounts(databaseUrl: string, args: string[]): string {
  const result = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/accounts.ts', ...args], {
    cwd: projectRoot,
    env: { ...process.env, DATABASE_URL: databaseUrl, STATEHOUSE_PASSWORD: 'kit suite password, long enough' },
    encoding: 'utf8',
  });
  if (result.status !== 0) throw new Error(`accounts ${args.join(' ')} failed: ${result.stderr}${result.stdout}`);
  return result.stdout;
}

async function waitFor(url: string, server: ChildProcess, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (server.exitCode !== null) throw new Error(`the console exited with ${server.exitCode}`);
    try {
      const response = await fetch(url);
      if (response.status < 500) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`the console at ${url} did not answer within ${timeoutMs} ms`);
}

/** Whether something answers on the port already (a console left running would be tested instead of ours). */
async function portAnswers(url: string): Promise<boolean> {
  try {
    await fetch(url, { signal: AbortSignal.timeout(2000) });
    return true;
  } catch {
    return false;
  }
}

export async function startDeployment(port: number): Promise<Deployment> {
  const url = `http://127.0.0.1:${port}`;
  if (await portAnswers(url)) throw new Error(`Port ${port} is taken: set KIT_DEPLOYMENT_PORT to a free one.`);
  const provider: Provider = (await testProviders()).includes('postgresql') ? 'postgresql' : 'sqlite';
  const database: ScratchDatabase = await createMigratedDatabase(provider, 'kit');
  accounts(database.url, ['create', 'kit-ci', '--role', 'admin']);
  const token = accounts(database.url, ['token', 'create', 'kit-ci', '--label', 'kit suite']).trim().split('\n').at(-1)?.trim() ?? '';
  if (!token.startsWith('sht_')) throw new Error(`no token in the accounts output: ${token}`);

  const nextCli = createRequire(import.meta.url).resolve('next/dist/bin/next');
  const server = spawn(process.execPath, [nextCli, 'start', '--hostname', '127.0.0.1', '--port', String(port)], {
    cwd: projectRoot,
    env: {
      ...process.env,
      DATABASE_URL: database.url,
      STATEHOUSE_AUTH: 'protected',
      STATEHOUSE_HOST: '127.0.0.1',
      NEXT_TELEMETRY_DISABLED: '1',
    },
    stdio: 'ignore',
  });
  await waitFor(`${url}/sign-in`, server, 60_000);
  const anonymous = await fetch(`${url}/api/list-apps`);
  if (anonymous.status !== 401) {
    server.kill('SIGTERM');
    throw new Error(
      `The deployment at ${url} answered ${anonymous.status} without a token: it is not the protected console this suite started.`,
    );
  }
  const db = await openDatabase(database.url);

  return {
    provider,
    url,
    token,
    async tableCounts() {
      const names =
        provider === 'sqlite'
          ? await db.client.$queryRaw<{ name: string }[]>(
              sql`SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'`,
            )
          : await db.client.$queryRaw<{ name: string }[]>(
              sql`SELECT table_name AS name FROM information_schema.tables WHERE table_schema = current_schema()`,
            );
      const counts: Record<string, number> = {};
      for (const { name } of names.sort((a, b) => a.name.localeCompare(b.name))) {
        if (BOOKKEEPING.has(name)) continue;
        const [row] = await db.client.$queryRaw<{ n: unknown }[]>(sql`SELECT COUNT(*) AS n FROM ${raw(`"${name}"`)}`);
        counts[name] = Number(row?.n ?? 0);
      }
      return counts;
    },
    async stop() {
      server.kill('SIGTERM');
      await new Promise((resolve) => (server.exitCode !== null ? resolve(null) : server.once('exit', resolve)));
      await db.close();
      await database.remove();
    },
  };
}
