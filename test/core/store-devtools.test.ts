// @vitest-environment node
import { build } from 'esbuild';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { devtools } from 'zustand/middleware';
import { createToolStreamStore } from 'toolgate/core';
import { toolEvents as e } from 'toolgate/testing';

/** A stand-in for the Redux DevTools extension: records what the middleware tells it. */
function fakeExtension() {
  const connection = { init: vi.fn(), send: vi.fn(), subscribe: vi.fn(() => () => {}), unsubscribe: vi.fn() };
  const extension = { connect: vi.fn(() => connection) };
  vi.stubGlobal('window', { __REDUX_DEVTOOLS_EXTENSION__: extension });
  return { extension, connection };
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('the store in Redux DevTools', () => {
  it('connects under the given name and sends each accepted event as an action named after it', async () => {
    const { extension, connection } = fakeExtension();
    const store = createToolStreamStore({ devtools: { middleware: devtools, name: 'session-1' } });
    // At once: the middleware is the app's, nothing is loaded.
    expect(connection.init).toHaveBeenCalledTimes(1);
    expect(extension.connect).toHaveBeenCalledWith(expect.objectContaining({ name: 'session-1' }));

    store.getState().dispatch(e.start('c1', { name: 'search' }));
    store.getState().dispatch(e.delta('c1', '{"q":'));
    store.getState().dispatch({ type: 'tool.stream', phase: 'settled' }); // malformed: changes nothing
    store.getState().interrupt();

    expect(connection.send.mock.calls.map(([action]) => action)).toEqual([
      { type: 'tool.stream/start' },
      { type: 'tool.stream/arguments-delta' },
      { type: 'toolgate.interrupt' },
    ]);
    const [, last] = connection.send.mock.calls.at(-1) ?? [];
    expect(last).toBe(store.getState());
    expect(store.getState().calls.c1?.status).toBe('cancelled');
  });

  it('defaults the name to toolgate, and a coalescing store records every change too', async () => {
    const { extension, connection } = fakeExtension();
    const store = createToolStreamStore({ devtools: { middleware: devtools }, coalesce: 'frame', scheduleFrame: () => {} });
    expect(connection.init).toHaveBeenCalledTimes(1);
    expect(extension.connect).toHaveBeenCalledWith(expect.objectContaining({ name: 'toolgate' }));
    store.getState().dispatch(e.start('c1'));
    expect(connection.send).toHaveBeenCalledTimes(1);
  });

  it('connects nothing without the option', async () => {
    const { extension } = fakeExtension();
    const store = createToolStreamStore();
    store.getState().dispatch(e.start('c1'));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(extension.connect).not.toHaveBeenCalled();
  });

  it('refuses the old `devtools: true` with a sentence that says what to pass', () => {
    expect(() => createToolStreamStore({ devtools: true as never })).toThrow(/\{ middleware: devtools \}.*zustand\/middleware/);
  });

  it('costs an app nothing when unused: no devtools code and no chunk of it in the app', async () => {
    // An app that imports the store, bundled with code splitting and zustand included (not external).
    const store = fileURLToPath(new URL('../../src/core/stream/store.ts', import.meta.url));
    const result = await build({
      stdin: { contents: `export { createToolStreamStore } from ${JSON.stringify(store)};`, resolveDir: process.cwd(), loader: 'ts' },
      bundle: true,
      splitting: true,
      format: 'esm',
      minify: true,
      outdir: 'out',
      write: false,
      logLevel: 'silent',
    });
    expect(result.outputFiles).toHaveLength(1);
    expect(result.outputFiles[0]?.text).not.toContain('__REDUX_DEVTOOLS_EXTENSION__');
  });
});
