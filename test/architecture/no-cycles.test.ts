// @vitest-environment node
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { findImportCycles, importGraph } from './import-graph';

const src = fileURLToPath(new URL('../../src/', import.meta.url));
const server = fileURLToPath(new URL('../../server/', import.meta.url));

/** A throw-away source tree: file name to text. */
function tree(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), 'toolgate-cycles-'));
  made.push(root);
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(join(root, name, '..'), { recursive: true });
    writeFileSync(join(root, name), text);
  }
  return root;
}
const made: string[] = [];
afterEach(() => {
  for (const root of made.splice(0)) rmSync(root, { recursive: true, force: true });
});

describe('imports in src/', () => {
  it('form no cycle: every module can be read (and loaded) before the modules that import it', () => {
    const graph = importGraph(src);
    expect(graph.size).toBeGreaterThan(50);
    expect(findImportCycles(graph)).toEqual([]);
  });
});

describe('imports in server/', () => {
  it('form no cycle either: the reference server is read the same way as the kit', () => {
    const graph = importGraph(server);
    expect(graph.size).toBeGreaterThan(20);
    expect(findImportCycles(graph)).toEqual([]);
  });
});

describe('the cycle check', () => {
  it('finds a cycle through a type-only import, a re-export and an index file', () => {
    const root = tree({
      'a.ts': "import type { B } from './b';\nexport type A = B;",
      'b.ts': "export { c } from './c/index';\nexport type B = 1;",
      'c/index.ts': "import { a } from '../a.js';\nexport const c = a;",
      'd.ts': "import { a } from './a'; // './b' in a comment is not an import",
    });
    expect(findImportCycles(importGraph(root))).toEqual([['a.ts', 'b.ts', join('c', 'index.ts'), 'a.ts']]);
  });

  it('finds nothing in a tree without one, and ignores imports in comments and packages', () => {
    const root = tree({
      'a.ts': "import { b } from './b';\nimport React from 'react';\n/** import { a } from './a' */\nexport const a = b;",
      'b.ts': "// import { a } from './a';\nexport const b = 1;",
    });
    expect(findImportCycles(importGraph(root))).toEqual([]);
  });

  it('finds a file that imports itself', () => {
    const root = tree({ 'self.ts': "import { x } from './self';\nexport const x = 1;" });
    expect(findImportCycles(importGraph(root))).toEqual([['self.ts', 'self.ts']]);
  });
});
