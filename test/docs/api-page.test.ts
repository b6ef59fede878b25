// @vitest-environment node
// docs/api.md is the public surface in words: one line per export of each entry point. These
// tests read the barrels with the TypeScript compiler API and hold the page equal to them, both
// ways, so that a new export is a decision that gets documented and an internal helper does not
// leak out unnoticed.
import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { alias } from '../../.storybook/aliases';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const page = readFileSync(join(root, 'docs', 'api.md'), 'utf8');

/** The entry points (the one definition tests and stories resolve them by): name -> barrel. */
const entries: Record<string, string> = { ...alias };

interface Exported {
  readonly type: boolean;
  /** Parameter names of a function's first call signature (`?` when optional, `...` when rest). */
  readonly parameters: readonly string[] | undefined;
}

function readExports(): Map<string, Map<string, Exported>> {
  const config = ts.readConfigFile(join(root, 'tsconfig.json'), ts.sys.readFile);
  const { options } = ts.parseJsonConfigFileContent(config.config, ts.sys, root);
  const program = ts.createProgram({ rootNames: Object.values(entries), options: { ...options, noEmit: true } });
  const checker = program.getTypeChecker();
  const result = new Map<string, Map<string, Exported>>();
  for (const [entry, file] of Object.entries(entries)) {
    const source = program.getSourceFile(file);
    const module = source && checker.getSymbolAtLocation(source);
    if (!module) throw new Error(`cannot read the exports of ${entry} (${file})`);
    const names = new Map<string, Exported>();
    for (const symbol of checker.getExportsOfModule(module)) {
      const target = symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
      const type = (target.flags & ts.SymbolFlags.Value) === 0;
      let parameters: string[] | undefined;
      const declaration = target.valueDeclaration ?? target.declarations?.[0];
      if (!type && declaration) {
        const signature = checker.getTypeOfSymbolAtLocation(target, declaration).getCallSignatures()[0];
        parameters = signature?.getParameters().map((parameter) => {
          const node = parameter.valueDeclaration;
          const rest = node && ts.isParameter(node) && node.dotDotDotToken ? '...' : '';
          const optional = node && ts.isParameter(node) && (node.questionToken || node.initializer) ? '?' : '';
          return `${rest}${parameter.name}${optional}`;
        });
      }
      names.set(symbol.name, { type, parameters });
    }
    result.set(entry, names);
  }
  return result;
}

interface Documented {
  readonly type: boolean;
  readonly parameters: readonly string[] | undefined;
  readonly line: number;
}

interface Section {
  readonly names: Map<string, Documented>;
  /** "Everything of `toolgate/core`, and the names below." */
  readonly includes: string[];
  readonly duplicates: string[];
}

const ITEM = /^- (\*type\* )?`([A-Za-z_$][\w$]*)(?:\(([^)]*)\))?`/;

function readPage(): { sections: Map<string, Section>; stray: string[] } {
  const sections = new Map<string, Section>();
  const stray: string[] = [];
  let current: Section | undefined;
  page.split('\n').forEach((text, index) => {
    const heading = /^## (.+)$/.exec(text);
    if (heading) {
      const entry = heading[1]!.trim();
      if (!(entry in entries)) stray.push(`line ${index + 1}: "## ${entry}" is not an entry point`);
      current = { names: new Map(), includes: [], duplicates: [] };
      sections.set(entry, current);
      return;
    }
    if (!current) return;
    for (const match of text.matchAll(/^Everything of `([^`]+)`/g)) current.includes.push(match[1]!);
    const item = ITEM.exec(text);
    if (!item) return;
    const name = item[2]!;
    if (current.names.has(name)) current.duplicates.push(name);
    const parameters = item[3] === undefined ? undefined : item[3].split(',').map((p) => p.trim()).filter(Boolean);
    current.names.set(name, { type: item[1] !== undefined, parameters, line: index + 1 });
  });
  return { sections, stray };
}

/** Every difference between the page and the exports, as lines a person can act on. */
function differences(): string[] {
  const exported = readExports();
  const { sections, stray } = readPage();
  const found: string[] = [...stray];
  for (const [entry, names] of exported) {
    const section = sections.get(entry);
    if (!section) {
      found.push(`${entry}: no "## ${entry}" section (exports ${[...names.keys()].sort().join(', ')})`);
      continue;
    }
    const documented = new Map(section.names);
    for (const included of section.includes) {
      const other = sections.get(included);
      if (!other) found.push(`${entry}: includes "${included}", which has no section`);
      else for (const [name, line] of other.names) if (!documented.has(name)) documented.set(name, line);
      const otherExports = exported.get(included);
      for (const name of otherExports?.keys() ?? []) {
        if (!names.has(name)) found.push(`${entry}: says it has everything of ${included}, but does not export ${name}`);
      }
    }
    for (const name of section.duplicates) found.push(`${entry}: ${name} is listed twice`);
    for (const [name, what] of names) {
      const line = documented.get(name);
      if (!line) {
        found.push(`${entry}: exports ${name}, which docs/api.md does not list`);
        continue;
      }
      if (line.type !== what.type) {
        found.push(`${entry}: ${name} (line ${line.line}) is ${what.type ? 'a type: mark it *type*' : 'a value: drop *type*'}`);
      }
      if (line.parameters && what.parameters && line.parameters.join(', ') !== what.parameters.join(', ')) {
        found.push(`${entry}: ${name} (line ${line.line}) takes (${what.parameters.join(', ')}), the page says (${line.parameters.join(', ')})`);
      }
      if (line.parameters && !what.parameters) found.push(`${entry}: ${name} (line ${line.line}) is not a function: drop the parentheses`);
    }
    for (const [name, line] of documented) {
      if (!names.has(name)) found.push(`${entry}: docs/api.md lists ${name} (line ${line.line}), which ${entry} does not export`);
    }
  }
  return found;
}

/** Every barrel of src: the entries' and the ones they list names from. */
function barrels(): string[] {
  const files: string[] = [];
  const walk = (dir: string): void => {
    for (const item of readdirSync(dir, { withFileTypes: true })) {
      if (item.isDirectory()) walk(join(dir, item.name));
      else if (item.name === 'index.ts') files.push(join(dir, item.name));
    }
  };
  walk(join(root, 'src'));
  return files;
}

describe('the API page (docs/api.md)', () => {
  it('lists every export of every entry point, and nothing else', { timeout: 60_000 }, () => {
    expect(differences()).toEqual([]);
  });

  it('has a section for each entry point', () => {
    const headings = [...page.matchAll(/^## (.+)$/gm)].map((m) => m[1]!.trim());
    expect(headings.sort()).toEqual(Object.keys(entries).sort());
  });
});

describe('the barrels', () => {
  it('list their exports by name (no export *)', () => {
    const star: string[] = [];
    for (const file of barrels()) {
      const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
      for (const statement of source.statements) {
        if (ts.isExportDeclaration(statement) && !statement.exportClause) star.push(`${relative(root, file)}: ${statement.getText(source)}`);
      }
    }
    expect(star).toEqual([]);
  });

  it('give the React entry every name of toolgate/core, each as a value or a type alike', { timeout: 60_000 }, () => {
    const exported = readExports();
    const core = exported.get('toolgate/core')!;
    const react = exported.get('toolgate')!;
    const missing = [...core].filter(([name, { type }]) => react.get(name)?.type !== type).map(([name]) => name);
    expect(missing).toEqual([]);
  });
});
