// @vitest-environment node
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { PROVIDER_ADAPTERS } from 'toolgate/adapters';

const dir = fileURLToPath(new URL('../../src/adapters/', import.meta.url));
const files = readdirSync(dir).filter((f) => f.endsWith('.ts'));

/** The files every adapter shares: the contract, the book of calls, the chunk readers, the streams' vocabularies, the list, the barrel. */
const SHARED = ['base.ts', 'call-book.ts', 'chunk-fields.ts', 'vocabularies.ts', 'providers.ts', 'index.ts'];

describe('toolgate/adapters', () => {
  it.each(files)('%s imports nothing but its siblings and toolgate core (no React, no provider SDK)', (file) => {
    const source = readFileSync(dir + file, 'utf8');
    const specifiers = [...source.matchAll(/\bfrom\s+'([^']+)'/g)].map((m) => m[1]);
    for (const spec of specifiers) expect(spec, file).toMatch(/^(\.\/[\w-]+|\.\.\/core(\/[\w-]+){0,2})$/);
  });

  it('has the shared files and one file per provider API, each adapter of the list defined in one of them', () => {
    const providerFiles = files.filter((f) => !SHARED.includes(f));
    expect(SHARED.every((f) => files.includes(f))).toBe(true);
    const defined = new Set<string>();
    for (const file of providerFiles) {
      const source = readFileSync(dir + file, 'utf8');
      const factories = [...source.matchAll(/^export function (create\w+Adapter)\(/gm)].map((m) => m[1]!);
      expect(factories.length, `${file} defines no adapter`).toBeGreaterThan(0);
      for (const name of factories) defined.add(name);
    }
    expect([...defined].sort()).toEqual(Object.values(PROVIDER_ADAPTERS).map((p) => p.create.name).sort());
  });
});
