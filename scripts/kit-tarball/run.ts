// A brand-new project installs the Playwright kit from a packed tarball
// (`npm pack`) and runs its suite (scripts/kit-tarball/suite.ts) on 4 workers
// in both namespace modes against a protected deployment (PostgreSQL when the
// test server is reachable), RUNS times, the first run killed mid-way (the
// next run's sweep must clear what it left). Every app of the deployment is
// dumped (list, state, export) before and after: they must be equal.
//
//   npm run test:kit-tarball            (RUNS=6, port KIT_TARBALL_PORT or 3480)
//
// Slow (a minute or more per run on a busy machine) and needs a production
// build (`npx next build`), so it is an opt-in script, not part of `npm test`.
import { execFile, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { chromiumExecutable } from '../../e2e/support/browser';
import { projectRoot } from '../../e2e/support/database';
import { startDeployment, type Deployment } from '../../playwright/tests/support/deployment';
import { CONFIG, SHARED_APP, SPEC } from './suite';

const exec = promisify(execFile);
const RUNS = Number(process.env.RUNS ?? 6);
const PORT = Number(process.env.KIT_TARBALL_PORT ?? 3480);

interface Report {
  stats: { expected: number; unexpected: number; skipped: number; duration: number };
}

async function api(deployment: Deployment, path: string, init: RequestInit = {}): Promise<unknown> {
  const response = await fetch(`${deployment.url}${path}`, {
    ...init,
    headers: { authorization: `Bearer ${deployment.token}`, 'content-type': 'application/json' },
  });
  if (!response.ok) throw new Error(`${init.method ?? 'GET'} ${path}: ${response.status} ${await response.text()}`);
  return response.json();
}

/** Every app: its summary (session and user counts), app state, and its export (sessions, events, user state). */
async function dump(deployment: Deployment): Promise<Record<string, unknown>> {
  const apps = (await api(deployment, '/api/list-apps')) as string[];
  const out: Record<string, unknown> = { summaries: await api(deployment, '/api/apps') };
  for (const app of apps) {
    out[app] = {
      state: await api(deployment, `/api/apps/${encodeURIComponent(app)}/state`),
      export: await api(deployment, `/api/apps/${encodeURIComponent(app)}/export`),
    };
  }
  return out;
}

async function seedBystanders(deployment: Deployment): Promise<void> {
  const edit = (set: object) => JSON.stringify({ set, reason: 'the app as deployed', actor: 'ops' });
  await api(deployment, `/api/apps/${SHARED_APP}/state`, { method: 'PATCH', body: edit({ banner: 'keep me', turns: 0, mode: 'live' }) });
  for (const app of [SHARED_APP, 'bystander']) {
    await api(deployment, `/api/apps/${app}/users/real-user/sessions`, {
      method: 'POST',
      body: JSON.stringify({ sessionId: 'real', state: { 'user:plan': 'pro', topic: 'real work' } }),
    });
  }
}

async function makeProject(): Promise<string> {
  const project = mkdtempSync(join(tmpdir(), 'statehouse-kit-project-'));
  await exec('npm', ['run', 'build:kit'], { cwd: projectRoot });
  const { stdout } = await exec('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', project], {
    cwd: projectRoot,
    maxBuffer: 64 * 1024 * 1024,
  });
  const [packed] = JSON.parse(stdout) as { filename: string; size: number }[];
  console.log(`packed ${packed?.filename ?? '?'} (${((packed?.size ?? 0) / 1e6).toFixed(1)} MB)`);
  const modules = join(project, 'node_modules');
  mkdirSync(join(modules, 'statehouse'), { recursive: true });
  await exec('tar', ['-xzf', join(project, packed?.filename ?? ''), '-C', join(modules, 'statehouse'), '--strip-components=1']);
  // Its dependencies (and @playwright/test) are this checkout's, as if npm had hoisted them.
  for (const entry of readdirSync(join(projectRoot, 'node_modules'))) {
    if (!entry.startsWith('.')) symlinkSync(join(projectRoot, 'node_modules', entry), join(modules, entry));
  }
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'new-project', private: true, type: 'module' }, null, 2));
  writeFileSync(join(project, 'playwright.config.ts'), CONFIG);
  mkdirSync(join(project, 'tests'));
  writeFileSync(join(project, 'tests', 'shared.spec.ts'), SPEC);
  return project;
}

function runSuite(project: string, deployment: Deployment, report: string, killWhenMarked = false): Promise<number | null> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [join(project, 'node_modules', '@playwright', 'test', 'cli.js'), 'test'], {
      cwd: project,
      env: {
        ...process.env,
        STATEHOUSE_URL: deployment.url,
        STATEHOUSE_TOKEN: deployment.token,
        KIT_REPORT: report,
        KIT_CHROMIUM: chromiumExecutable() ?? '',
        CI: '1',
      },
      stdio: 'ignore',
      detached: true,
    });
    let exited = false;
    child.once('exit', (code) => {
      exited = true;
      resolve(code);
    });
    if (!killWhenMarked) return;
    // Killed (runner and workers, SIGKILL) once its tests have marked namespaces and are under way.
    const poll = async (): Promise<void> => {
      while (!exited) {
        const marks = (await api(deployment, '/api/test-namespaces')) as { items: unknown[] };
        if (marks.items.length >= 4) {
          process.kill(-(child.pid ?? 0), 'SIGKILL');
          return;
        }
        await new Promise((next) => setTimeout(next, 100));
      }
    };
    void poll();
  });
}

async function main(): Promise<void> {
  const deployment = await startDeployment(PORT);
  const project = await makeProject();
  let failed = false;
  try {
    await seedBystanders(deployment);
    const before = await dump(deployment);
    const countsBefore = await deployment.tableCounts();

    // A run killed (SIGKILL, runner and workers) while its tests are under way.
    await runSuite(project, deployment, join(project, 'killed.json'), true);
    const marks = (await api(deployment, '/api/test-namespaces')) as { items: unknown[] };
    console.log(`killed run: ${marks.items.length} namespace(s) left marked`);

    for (let run = 1; run <= RUNS; run += 1) {
      const started = Date.now();
      const reportFile = join(project, `run-${run}.json`);
      const code = await runSuite(project, deployment, reportFile);
      const { stats } = JSON.parse(readFileSync(reportFile, 'utf8')) as Report;
      const ok = code === 0 && stats.unexpected === 0 && stats.expected === 14;
      failed ||= !ok;
      console.log(
        `run ${run}: exit ${code}, ${stats.expected} as expected (12 passing + 2 deliberate failures), ${stats.unexpected} unexpected, ` +
          `${((Date.now() - started) / 1000).toFixed(1)} s, load ${loadavg()
            .map((n) => n.toFixed(1))
            .join(' ')}`,
      );
    }

    const after = await dump(deployment);
    const left = (await api(deployment, '/api/test-namespaces')) as { items: unknown[] };
    const same = JSON.stringify(after) === JSON.stringify(before);
    // Rows only the log and the shared app's key history may gain: each clear, and each seeded app: key's write and
    // put-back. The session counts' slot rows are laid out as the triggers like (their sums are in the dump's summaries).
    const countsAfter = await deployment.tableCounts();
    const grown = Object.entries(countsAfter).filter(([table, n]) => n !== countsBefore[table]);
    const EXPECTED = new Set(['session_operations', 'state_changes', 'app_session_counts']);
    const tablesSame = grown.every(([table]) => EXPECTED.has(table));
    console.log(`apps before and after: ${same ? 'identical' : 'DIFFERENT'} (${Object.keys(before).join(', ')})`);
    console.log(
      `tables with more rows: ${grown.map(([table, n]) => `${table} +${n - (countsBefore[table] ?? 0)}`).join(', ') || 'none'}` +
        (tablesSame ? ' (the operations log, the shared app key history and count slots only)' : ' (UNEXPECTED)'),
    );
    console.log(`namespaces left marked: ${left.items.length}`);
    if (!same) {
      console.log(JSON.stringify({ before, after }, null, 1).slice(0, 4000));
    }
    failed ||= !same || !tablesSame || left.items.length > 0;
  } finally {
    await deployment.stop();
    rmSync(project, { recursive: true, force: true });
  }
  if (failed) {
    console.error('kit tarball run: FAILED');
    process.exit(1);
  }
  console.log('kit tarball run: passed');
}

await main();
