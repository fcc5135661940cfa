// The import graph of the repository, type-only imports included (a cycle of
// types is still two files that cannot be read, moved or split one at a time),
// and the cycles in it: between files, and between the units the layers are
// made of (a lib/ folder or top-level file, a components/ folder, app/).
// `npx tsx scripts/import-graph.ts` prints them; scripts/import-graph.test.ts
// keeps both at zero.
import path from 'node:path';
import ts from 'typescript';

export interface ImportGraph {
  root: string;
  /** Repository-relative paths of every TypeScript file tsconfig.json covers (generated code aside). */
  files: string[];
  /** Each file's imports of other files in `files`. */
  imports: Map<string, Set<string>>;
}

export function importGraph(root: string): ImportGraph {
  const configPath = path.join(root, 'tsconfig.json');
  const parsed = ts.getParsedCommandLineOfConfigFile(configPath, {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => undefined });
  if (!parsed) throw new Error(`${configPath}: not a readable tsconfig`);
  const absolute = parsed.fileNames.filter((file) => !file.endsWith('.d.ts') && !file.includes('/lib/generated/'));
  const known = new Set(absolute.map((file) => path.resolve(file)));
  const host = ts.createCompilerHost(parsed.options);
  const imports = new Map<string, Set<string>>();
  for (const file of absolute) {
    const source = ts.createSourceFile(file, ts.sys.readFile(file) ?? '', ts.ScriptTarget.Latest, true);
    const targets = new Set<string>();
    for (const specifier of specifiersOf(source)) {
      const resolved = ts.resolveModuleName(specifier, file, parsed.options, host).resolvedModule;
      const target = resolved && path.resolve(resolved.resolvedFileName);
      if (target && known.has(target)) targets.add(path.relative(root, target));
    }
    imports.set(path.relative(root, file), targets);
  }
  return { root, files: [...imports.keys()], imports };
}

/** Every module a file names: imports and re-exports (type-only too), import() calls and import('...') types. */
function specifiersOf(source: ts.SourceFile): string[] {
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    if (
      (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) &&
      node.moduleSpecifier &&
      ts.isStringLiteral(node.moduleSpecifier)
    ) {
      found.push(node.moduleSpecifier.text);
    } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
      const [argument] = node.arguments;
      if (argument && ts.isStringLiteral(argument)) found.push(argument.text);
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument) && ts.isStringLiteral(node.argument.literal)) {
      found.push(node.argument.literal.text);
    } else if (ts.isImportEqualsDeclaration(node) && ts.isExternalModuleReference(node.moduleReference)) {
      const { expression } = node.moduleReference;
      if (ts.isStringLiteral(expression)) found.push(expression.text);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** The strongly connected parts of a graph with more than one node, or one node that reaches itself (Tarjan). */
export function cyclesOf(nodes: Iterable<string>, edges: (node: string) => Iterable<string>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  const connect = (node: string): void => {
    index.set(node, next);
    low.set(node, next);
    next += 1;
    stack.push(node);
    onStack.add(node);
    let selfLoop = false;
    for (const target of edges(node)) {
      if (target === node) selfLoop = true;
      if (!index.has(target)) {
        connect(target);
        low.set(node, Math.min(low.get(node) ?? 0, low.get(target) ?? 0));
      } else if (onStack.has(target)) {
        low.set(node, Math.min(low.get(node) ?? 0, index.get(target) ?? 0));
      }
    }
    if (low.get(node) !== index.get(node)) return;
    const part: string[] = [];
    let member: string | undefined;
    do {
      member = stack.pop();
      if (member === undefined) break;
      onStack.delete(member);
      part.push(member);
    } while (member !== node);
    if (part.length > 1 || selfLoop) cycles.push(part.sort());
  };
  for (const node of nodes) if (!index.has(node)) connect(node);
  return cycles;
}

export function fileCycles(graph: ImportGraph): string[][] {
  return cyclesOf(graph.files, (file) => graph.imports.get(file) ?? []);
}

/** Product code: what the console runs (tests and their support reach across the layers to set things up). */
const isProduct = (file: string) => /^(app|components|lib)\//.test(file) && !/\.test\.tsx?$/.test(file) && !file.startsWith('lib/testing/');

/** The layer unit a file belongs to: `lib/commands`, `lib/services.ts`, `components/session-ops`, `app`. */
export function unitOf(file: string): string {
  const [top, second, ...rest] = file.split('/');
  if ((top === 'lib' || top === 'components') && second !== undefined && rest.length > 0) return `${top}/${second}`;
  return top === 'app' ? 'app' : file;
}

/** Loops between units, each with the imports that close it. */
export function unitCycles(graph: ImportGraph): { units: string[]; imports: string[] }[] {
  const edges = new Map<string, Set<string>>();
  for (const file of graph.files.filter(isProduct)) {
    const unit = unitOf(file);
    const targets = edges.get(unit) ?? new Set<string>();
    edges.set(unit, targets);
    for (const target of graph.imports.get(file) ?? []) if (isProduct(target) && unitOf(target) !== unit) targets.add(unitOf(target));
  }
  return cyclesOf(edges.keys(), (unit) => edges.get(unit) ?? []).map((units) => ({
    units,
    imports: graph.files
      .filter(isProduct)
      .flatMap((file) =>
        [...(graph.imports.get(file) ?? [])]
          .filter(
            (target) =>
              isProduct(target) && unitOf(target) !== unitOf(file) && units.includes(unitOf(file)) && units.includes(unitOf(target)),
          )
          .map((target) => `${file} -> ${target}`),
      ),
  }));
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) {
  const graph = importGraph(process.cwd());
  const importCount = [...graph.imports.values()].reduce((sum, targets) => sum + targets.size, 0);
  const files = fileCycles(graph);
  const units = unitCycles(graph);
  console.log(`${graph.files.length} files, ${importCount} imports: ${files.length} file cycles, ${units.length} unit loops`);
  for (const cycle of files) console.log(`file cycle: ${cycle.join(' <-> ')}`);
  for (const loop of units) console.log(`unit loop: ${loop.units.join(' <-> ')}\n  ${loop.imports.join('\n  ')}`);
}
