// @vitest-environment node
/**
 * Comments and docs point to documents a reader of the repository can open: docs/protocol.md and
 * docs/architecture.md (docs/architecture.md, "Conventions"), never to the design notes or the
 * source documents the project was first written from, which are not in the repository.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { SOURCE_WORDS } from '../../scripts/source-words.mjs';

const root = fileURLToPath(new URL('../../', import.meta.url));

/** Text files a person reads: sources, tests, stories, scripts, docs and configuration. */
const TEXT = /\.(ts|tsx|mts|cts|js|mjs|cjs|md|css|html|ya?ml|sh)$/;
/** The files that must spell the words out: the one that defines them, and this test of it. */
const SPELLS_THE_WORDS = new Set(['scripts/source-words.mjs', 'test/architecture/doc-references.test.ts']);

/** Every `path:line: text` of the given files whose line names a source outside the repository. */
function citationsOfSources(files: ReadonlyArray<{ path: string; text: string }>): string[] {
  const found: string[] = [];
  for (const { path, text } of files) {
    text.split('\n').forEach((line, index) => {
      if (SOURCE_WORDS.test(line)) found.push(`${path}:${index + 1}: ${line.trim()}`);
    });
  }
  return found;
}

function trackedTextFiles(): Array<{ path: string; text: string }> {
  const listed = execFileSync('git', ['ls-files', '-z'], { cwd: root, encoding: 'utf8' }).split('\0');
  return listed
    .filter((path) => TEXT.test(path) && !SPELLS_THE_WORDS.has(path))
    .map((path) => ({ path, text: readFileSync(join(root, path), 'utf8') }));
}

describe('references to documents outside the repository', () => {
  it('are found in a line that cites the design notes, a numbered source document or a runtime code name', () => {
    const cited = [
      'see DESIGN.md',
      'design.md, "Layers"',
      '// DESIGN convention 5: a table',
      '// DESIGN "The wire": sticky',
      "the outcome of DESIGN's union",
      '(seed 000, "Results")',
      'Seed 002: bound to the room',
      'both runtimes of the seeds',
      'a vRT server sends none',
      'rmc `tool.completed`',
    ];
    const found = citationsOfSources(cited.map((text, index) => ({ path: `case-${index}.ts`, text })));
    expect(found).toHaveLength(cited.length);
    expect(found[0]).toBe('case-0.ts:1: see DESIGN.md');
  });

  it("are not confused with fast-check's seeds or the English word", () => {
    const plain = [
      '{ seed: 1592590337, numRuns: 2000 }',
      'keeps its promises (seed 1592590337)',
      'fixed fast-check seeds, printed on failure',
      'const random = createRandom(seed);',
      'by design the store is small',
      'designed for the person who carries it on',
    ];
    expect(citationsOfSources(plain.map((text, index) => ({ path: `plain-${index}.ts`, text })))).toEqual([]);
  });

  it('appear in no tracked source, test, story, script or doc file', () => {
    const files = trackedTextFiles();
    expect(files.map((file) => file.path)).toEqual(expect.arrayContaining(['src/core/stream/reducer.ts', 'docs/protocol.md', 'README.md']));
    expect(citationsOfSources(files)).toEqual([]);
  });
});
