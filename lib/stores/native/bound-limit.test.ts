// SQLite's planner reads a bare bound LIMIT, and a statement whose plan read a
// parameter is prepared again every time it is bound: each cached statement
// with `LIMIT ?` was prepared anew on every run. Every LIMIT the stores bind
// goes through boundLimit (`+?`); this finds any that does not.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const STORES = join(import.meta.dirname, '..');

/** Statements written as text for an agent's database, where the LIMIT is a number in the text, not a parameter. */
const LITERAL_LIMITS = [/adk\/base\/lists\.ts:\d+: .*LIMIT \$\{LATEST_SCAN\}/, /adk\/python-db\/index\.ts:\d+: .*LIMIT \$\{limit\}`,$/];

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [path] : [];
  });
}

describe('bound LIMITs in the stores', () => {
  it('are all written +? (boundLimit), never a bare parameter', () => {
    const bare = sources(STORES).flatMap((file) =>
      readFileSync(file, 'utf8')
        .split('\n')
        .flatMap((line, index) => (/LIMIT \$\{(?!boundLimit\()/.test(line) ? [`${file}:${index + 1}: ${line.trim()}`] : [])),
    );
    expect(bare.filter((line) => !LITERAL_LIMITS.some((literal) => literal.test(line)))).toEqual([]);
  });
});
