// @vitest-environment node
/**
 * The adapters' JSDoc examples and docs/adapters.md are copied into apps as they are, so they
 * must call the store the way it works: a zustand vanilla store keeps its actions in its
 * state (`store.getState().dispatch(e)`); the store object itself has no `dispatch`.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { createToolStreamStore } from 'toolgate/core';

const root = fileURLToPath(new URL('../../', import.meta.url));
// The barrel has no JSDoc; the book of calls and the vocabularies are internal (nothing of them is public).
const adapterFiles = readdirSync(`${root}src/adapters`)
  .filter((f) => f.endsWith('.ts') && f !== 'index.ts' && f !== 'call-book.ts' && f !== 'vocabularies.ts')
  .map((f) => `src/adapters/${f}`);

/** The `@example` blocks of a source file (each up to the end of its JSDoc comment or the next tag). */
function examplesOf(source: string): string[] {
  const blocks: string[] = [];
  for (const comment of source.match(/\/\*\*[\s\S]*?\*\//g) ?? []) {
    const lines = comment.split('\n').map((l) => l.replace(/^\s*\/?\*+\/?\s?/, ''));
    let current: string[] | undefined;
    for (const line of lines) {
      if (line.startsWith('@')) {
        if (current) blocks.push(current.join('\n'));
        current = line.startsWith('@example') ? [] : undefined;
        continue;
      }
      current?.push(line);
    }
    if (current) blocks.push(current.join('\n'));
  }
  return blocks;
}

/** `dispatch` called on something that is not `store.getState()` (or a `dispatch` taken from it). */
const WRONG_DISPATCH = /\bstore\.dispatch\(/;

describe("the adapters' examples", () => {
  it('call dispatch on the store state, since the store itself has none', () => {
    const store = createToolStreamStore();
    expect('dispatch' in store).toBe(false);
    expect(typeof store.getState().dispatch).toBe('function');
  });

  it.each(adapterFiles)('%s: every @example that dispatches uses store.getState().dispatch', (file) => {
    const examples = examplesOf(readFileSync(`${root}${file}`, 'utf8'));
    expect(examples.length).toBeGreaterThan(0);
    for (const example of examples) expect(example).not.toMatch(WRONG_DISPATCH);
  });

  it('docs/adapters.md never calls store.dispatch', () => {
    expect(readFileSync(`${root}docs/adapters.md`, 'utf8')).not.toMatch(WRONG_DISPATCH);
  });
});
