// @vitest-environment node
/**
 * What the store's modules bring into an app's bundle (docs/package.md, "In a real app"): a module
 * of the store's path that does work at load keeps everything it imports in any bundle that
 * imports it for one small helper, and test-only data must stay out of the store's bundle.
 */
import { build, type Metafile } from 'esbuild';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const src = (path: string) => fileURLToPath(new URL(`../../src/${path}`, import.meta.url));

/** The bundle of `source` (minified, one chunk, React and zustand left out): its modules and its text. */
async function bundle(source: string): Promise<{ modules: string[]; text: string }> {
  const result = await build({
    stdin: { contents: source, resolveDir: process.cwd(), loader: 'tsx' },
    bundle: true,
    format: 'esm',
    minify: true,
    jsx: 'automatic',
    write: false,
    metafile: true,
    external: ['react', 'react-dom', 'react/jsx-runtime', 'zustand', 'zustand/*', '@radix-ui/*'],
    alias: { toolgate: src('index.ts'), 'toolgate/core': src('core/index.ts') },
    logLevel: 'silent',
  });
  const output = Object.values((result.metafile as Metafile).outputs)[0]!;
  const modules = Object.entries(output.inputs)
    .filter(([, input]) => input.bytesInOutput > 0)
    .map(([file]) => file);
  return { modules, text: result.outputFiles[0]!.text };
}

describe("the store's path in a bundle", () => {
  it('leaves the reducer, the phase specs and the parser out of a list and a dialog that only read approval fields', async () => {
    // A card reads `approvalFieldsOf` from the reducer's module: that module must do no work at
    // load (its approval rules are made on the first mark), or the whole store comes along.
    const { modules } = await bundle(`export { ToolCallList, ConfirmToolDialog } from 'toolgate';`);
    expect(modules.some((f) => f.endsWith('src/components/tool-call-list.tsx'))).toBe(true);
    for (const part of ['src/core/stream/tool-phases.ts', 'src/core/json/arguments-parser.ts', 'src/core/stream/validate-event.ts', 'src/core/stream/local-events.ts']) {
      expect(modules.filter((f) => f.endsWith(part)), part).toEqual([]);
    }
  });

  it("keeps the testing builders' defaults and the list of call keys out of the store", async () => {
    const { modules, text } = await bundle(`export { createToolStreamStore } from 'toolgate/core';`);
    expect(modules.some((f) => f.endsWith('src/core/stream/reducer.ts'))).toBe(true);
    expect(modules.filter((f) => f.includes('src/testing/'))).toEqual([]);
    // The failed phase's default message lives only in the builders.
    expect(text.includes('the model stopped before completing the arguments'), 'the failed phase default').toBe(false);
    // TOOL_CALL_KEYS is the one place that lists the keys built from the text beside the fields.
    expect(/"arguments",\s*"argumentsText",\s*"partialArguments",\s*"writingPath"/.test(text), 'TOOL_CALL_KEYS').toBe(false);
  });
});
