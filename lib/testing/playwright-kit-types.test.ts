// The kit's matchers take session handles only: a spec that hands them
// anything else does not compile. Checked by compiling a spec (kept in memory,
// beside the kit's sources) with the TypeScript compiler and the kit's options.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { projectRoot } from '../../e2e/support/database';

const KIT = join(projectRoot, 'playwright');
const SPEC = join(KIT, 'types-check.spec.ts');

const LINES = [
  "import { expect, sessionOn, StatehouseClient, test } from './index.js';",
  "test('types', async ({ statehouse }) => {",
  '  const session = await statehouse.seed();',
  "  await expect(session).toHaveStateKey('topic');",
  "  await expect(session).not.toHaveState({ topic: 'tea' });",
  "  await expect(statehouse.session('s1')).toHaveEventCount(1);",
  "  await expect(sessionOn(new StatehouseClient(), { appName: 'a', userId: 'u', sessionId: 's' })).toHaveEvent({ author: 'agent' });",
  "  await expect(42).toHaveStateKey('topic');",
  "  await expect('a/u/s').toHaveEventCount(1);",
  "  await expect({ appName: 'a', userId: 'u' }).toHaveState({});",
  '  await expect(session).toHaveStateKey(42);',
  '});',
];

/** Diagnostics of the spec, as `line: message` (1-based lines). */
function diagnose(): string[] {
  const config = ts.readConfigFile(join(KIT, 'tsconfig.build.json'), (path) => readFileSync(path, 'utf8'));
  const { options } = ts.parseJsonConfigFileContent(config.config, ts.sys, KIT);
  const source = LINES.join('\n');
  const host = ts.createCompilerHost({ ...options, noEmit: true });
  const readFile = host.readFile.bind(host);
  const getSourceFile = host.getSourceFile.bind(host);
  host.readFile = (path) => (path === SPEC ? source : readFile(path));
  host.fileExists = (path) => path === SPEC || ts.sys.fileExists(path);
  host.getSourceFile = (path, language) =>
    path === SPEC ? ts.createSourceFile(path, source, language, true) : getSourceFile(path, language);
  const program = ts.createProgram([SPEC], { ...options, noEmit: true }, host);
  const spec = program.getSourceFile(SPEC);
  if (!spec) throw new Error('the spec was not compiled');
  return program.getSemanticDiagnostics(spec).map((diagnostic) => {
    const { line } = spec.getLineAndCharacterOfPosition(diagnostic.start ?? 0);
    return `${line + 1}: ${ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n').split('\n')[0] ?? ''}`;
  });
}

describe('statehouse/playwright matcher types', () => {
  it('accept session handles, and nothing else', () => {
    const diagnostics = diagnose();
    // Lines 4-7 use handles: no error. Lines 8-11 do not compile.
    expect(diagnostics.map((d) => Number(d.split(':')[0]))).toEqual([8, 9, 10, 11]);
    expect(diagnostics[0]).toMatch(/^8: Property 'toHaveStateKey' does not exist/);
    expect(diagnostics[1]).toMatch(/^9: Property 'toHaveEventCount' does not exist/);
    expect(diagnostics[2]).toMatch(/^10: Property 'toHaveState' does not exist/);
    expect(diagnostics[3]).toMatch(/^11: Argument of type 'number' is not assignable to parameter of type 'string'/);
  }, 120_000);
});
