// No import cycles, type-only imports counted: not between files, and not
// between the layers' units (lib/commands <-> lib/http, lib/auth <-> lib/services.ts
// were such loops). scripts/import-graph.ts prints what this finds.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { cyclesOf, fileCycles, importGraph, unitCycles, unitOf } from './import-graph';

const graph = importGraph(path.resolve(import.meta.dirname, '..'));

describe('the import graph', () => {
  it('covers the tree, type-only imports, re-exports and import() included', () => {
    expect(graph.files.length).toBeGreaterThan(500);
    // `import type { ... } from './types'`
    expect(graph.imports.get('lib/session-service/operations.ts')).toContain('lib/session-service/types.ts');
    // `export type { PageRequest, SessionRef } from './types'`
    expect(graph.imports.get('lib/session-service/store.ts')).toContain('lib/session-service/types.ts');
    // '@/lib/...' paths resolve like relative ones.
    expect(graph.imports.get('components/actions/use-action.ts')).toContain('lib/actions/call.ts');
  });

  it('finds cycles of any length, and a file importing itself', () => {
    const edges: Record<string, string[]> = { a: ['b'], b: ['c'], c: ['a'], d: ['d'], e: ['a'] };
    expect(cyclesOf(Object.keys(edges), (node) => edges[node] ?? [])).toEqual([['a', 'b', 'c'], ['d']]);
    expect(unitOf('lib/commands/session-ops.ts')).toBe('lib/commands');
    expect(unitOf('lib/services.ts')).toBe('lib/services.ts');
    expect(unitOf('components/ui/button.tsx')).toBe('components/ui');
    expect(unitOf('app/apps/[app]/page.tsx')).toBe('app');
  });

  it('has no cycle between files', () => {
    expect(fileCycles(graph)).toEqual([]);
  });

  it('has no loop between units (lib folders and top-level files, components folders, app)', () => {
    expect(unitCycles(graph)).toEqual([]);
  });
});
