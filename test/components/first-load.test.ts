// @vitest-environment node
import { build, type Metafile } from 'esbuild';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const src = (path: string) => fileURLToPath(new URL(`../../src/${path}`, import.meta.url));

/** An app's entry chunk and its other chunks, bundled with code splitting, the kit's dependencies included (React left out). */
async function split(source: string): Promise<{ entry: string[]; later: string[] }> {
  const result = await build({
    stdin: { contents: source, resolveDir: process.cwd(), loader: 'tsx' },
    bundle: true,
    splitting: true,
    format: 'esm',
    minify: true,
    jsx: 'automatic',
    outdir: 'out',
    write: false,
    metafile: true,
    external: ['react', 'react-dom', 'react/jsx-runtime'],
    alias: { toolgate: src('index.ts') },
    logLevel: 'silent',
  });
  const outputs = Object.values((result.metafile as Metafile).outputs);
  const inputsOf = (o: Metafile['outputs'][string]) => Object.keys(o.inputs);
  // The targets of `import()` are entry points of their own to esbuild: the app's is stdin.
  const entry = outputs.find((o) => o.entryPoint === '<stdin>');
  return { entry: entry ? inputsOf(entry) : [], later: outputs.filter((o) => o !== entry).flatMap(inputsOf) };
}

describe('what an app loads at first', () => {
  it('leaves the windowing, the dialog itself (its body, parts and Radix), its editor and its changes list, the app-tool runtime and the confirmation flow to chunks loaded on first use', async () => {
    const { entry, later } = await split(`import { ConfirmToolDialog, ToolCallList, ToolgateProvider } from 'toolgate';
export { ConfirmToolDialog, ToolCallList, ToolgateProvider };`);
    expect(entry.some((f) => f.endsWith('src/components/tool-call-list.tsx'))).toBe(true);
    // The light dialog that waits for a request is there; what it loads is not.
    expect(entry.some((f) => f.endsWith('src/components/confirm-tool-dialog.tsx'))).toBe(true);
    for (const part of [
      '@tanstack/virtual-core',
      '@tanstack/react-virtual',
      '@radix-ui/react-dialog',
      '@radix-ui/react-focus-scope',
      'react-remove-scroll',
      'src/components/confirm-dialog-complete.tsx',
      'src/components/confirm-dialog-root.tsx',
      'src/components/confirm-dialog-sections.tsx',
      'src/components/confirm-dialog-parts.tsx',
      'src/components/confirm-editor.tsx',
      'src/components/confirm-edit-form.ts',
      'src/components/confirm-changes.tsx',
    ]) {
      expect(entry.filter((f) => f.includes(part)), part).toEqual([]);
      expect(later.some((f) => f.includes(part)), part).toBe(true);
    }
    // The provider's client makes the app-tool host and the approvals light: what runs a call and
    // what takes a request in load on the first call and the first request.
    for (const part of [
      'src/core/app-tools/host-runtime.ts',
      'src/core/app-tools/run-call.ts',
      'src/core/app-tools/call-queue.ts',
      'src/core/app-tools/answer-ledger.ts',
      'src/core/approval/confirmation-controller.ts',
      'src/core/approval/confirmation-flow.ts',
      'src/core/approval/confirmation-runs.ts',
      'src/core/approval/confirmation-request.ts',
    ]) {
      expect(entry.filter((f) => f.includes(part)), part).toEqual([]);
      expect(later.some((f) => f.includes(part)), part).toBe(true);
    }
    expect(entry.some((f) => f.endsWith('src/core/app-tools/host-shell.ts'))).toBe(true);
    // Nothing of zustand's devtools, in any chunk: the app passes the middleware when it wants it.
    expect([...entry, ...later].filter((f) => f.includes('zustand/esm/middleware'))).toEqual([]);
  });
});
