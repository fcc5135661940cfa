// A child `playwright test` of the inner suite, and what its JSON report says.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { TestInfo } from '@playwright/test';
import { projectRoot } from '../../../e2e/support/database';

export interface InnerResult {
  title: string;
  status: string;
  parallelIndex: number;
  attachments: { name: string; contentType: string; body?: string; path?: string }[];
  errors: string[];
}

export interface InnerRun {
  exitCode: number | null;
  output: string;
  results: InnerResult[];
}

interface ReportSuite {
  title: string;
  specs?: {
    title: string;
    tests: {
      results: { status: string; parallelIndex: number; attachments: InnerResult['attachments']; errors: { message?: string }[] }[];
    }[];
  }[];
  suites?: ReportSuite[];
}

function collect(suite: ReportSuite, into: InnerResult[], prefix: string): void {
  const path = suite.title && !suite.title.endsWith('.ts') ? `${prefix}${suite.title} › ` : prefix;
  for (const spec of suite.specs ?? []) {
    for (const test of spec.tests) {
      for (const result of test.results) {
        into.push({
          title: `${path}${spec.title}`,
          status: result.status,
          parallelIndex: result.parallelIndex,
          attachments: result.attachments,
          errors: result.errors.map((e) => e.message ?? ''),
        });
      }
    }
  }
  for (const child of suite.suites ?? []) collect(child, into, path);
}

/** Runs inner/<spec> with these workers against a Statehouse; resolves with the report once the child exits. */
export async function runInner(testInfo: TestInfo, spec: string, workers: number, env: Record<string, string>): Promise<InnerRun> {
  const report = testInfo.outputPath('inner-report.json');
  const child = spawn(
    process.execPath,
    [
      join(projectRoot, 'node_modules/@playwright/test/cli.js'),
      'test',
      '-c',
      'playwright/tests/inner/playwright.config.ts',
      '--workers',
      String(workers),
    ],
    {
      cwd: projectRoot,
      env: {
        ...process.env,
        ...env,
        KIT_INNER_SPEC: spec,
        KIT_INNER_REPORT: report,
        KIT_INNER_OUTPUT: testInfo.outputPath('inner-results'),
        // The outer run's own settings must not leak into the inner one.
        PLAYWRIGHT_JSON_OUTPUT_NAME: '',
        TEST_WORKER_INDEX: '',
        TEST_PARALLEL_INDEX: '',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exitCode = await new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const results: InnerResult[] = [];
  try {
    const parsed = JSON.parse(readFileSync(report, 'utf8')) as { suites: ReportSuite[] };
    for (const suite of parsed.suites) collect(suite, results, '');
  } catch (error) {
    throw new Error(`the inner run wrote no report (exit ${exitCode}): ${String(error)}\n${output}`);
  }
  return { exitCode, output, results };
}
