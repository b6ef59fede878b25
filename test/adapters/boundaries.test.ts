// @vitest-environment node
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const dir = fileURLToPath(new URL('../../src/adapters/', import.meta.url));
const files = readdirSync(dir).filter((f) => f.endsWith('.ts'));

describe('toolgate/adapters', () => {
  it.each(files)('%s imports nothing but its siblings and toolgate core (no React, no provider SDK)', (file) => {
    const source = readFileSync(dir + file, 'utf8');
    const specifiers = [...source.matchAll(/\bfrom\s+'([^']+)'/g)].map((m) => m[1]);
    for (const spec of specifiers) expect(spec, file).toMatch(/^(\.\/[\w-]+|\.\.\/core(\/[\w-]+)?)$/);
  });

  it('has one file per provider and a barrel', () => {
    expect(files.sort()).toEqual(
      ['ai-sdk.ts', 'anthropic.ts', 'base.ts', 'cohere.ts', 'gemini.ts', 'index.ts', 'openai-chat.ts', 'openai-responses.ts'].sort(),
    );
  });
});
