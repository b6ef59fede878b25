// Runs inside a fresh project where the packed toolgate tarball is installed (see scripts/smoke.mjs).
// 1. Importing an entry does no work: no timers, listeners, console output, fetches or new globals
//    (toolgate: none but those @radix-ui/react-dialog adds in Node, see below).
// 2. Every entry imports, through the package's exports map, as an app would.
// 3. ConfirmToolDialog, ToolCallList, ArgumentsPreview and ToolStatusBadge render with
//    react-dom/server, without errors; the stylesheet resolves.
import assert from 'node:assert/strict';

// Load the peers and dependencies first, so that only the kit's own import-time work is observed.
const React = await import('react');
const { renderToString } = await import('react-dom/server');
await import('zustand/vanilla');
await import('zustand/shallow');
await import('@radix-ui/react-dialog');

const seen = [];
const globalsBefore = new Set(Reflect.ownKeys(globalThis));
const spy = (owner, name) => {
  const had = Object.hasOwn(owner, name);
  const original = owner[name];
  owner[name] = function (...args) {
    seen.push(name);
    return original?.apply(this, args);
  };
  return () => {
    if (had) owner[name] = original;
    else delete owner[name];
  };
};
const listenersBefore = process.eventNames().map((n) => `${String(n)}:${process.listenerCount(n)}`).join();
const restore = [
  ...['setTimeout', 'setInterval', 'setImmediate', 'queueMicrotask', 'fetch', 'addEventListener'].map((n) => spy(globalThis, n)),
  ...['log', 'info', 'warn', 'error', 'debug'].map((n) => spy(console, n)),
  spy(process, 'on'),
];
const entries = {};
for (const name of ['toolgate/core', 'toolgate/testing', 'toolgate/adapters', 'toolgate/client', 'toolgate/ai-sdk', 'toolgate/ag-ui', 'toolgate/json', 'toolgate/audit', 'toolgate/policy', 'toolgate/renderers', 'toolgate/server', 'toolgate/otel', 'toolgate/mcp-apps', 'toolgate/devtools', 'toolgate']) {
  entries[name] = await import(name);
}
restore.forEach((undo) => undo());
assert.deepEqual(seen, [], `importing the entries did work at import time: ${seen.join(', ')}`);
const newGlobals = Reflect.ownKeys(globalThis).filter((k) => !globalsBefore.has(k));
assert.deepEqual(newGlobals, [], 'importing the entries added globals');
assert.equal(
  process.eventNames().map((n) => `${String(n)}:${process.listenerCount(n)}`).join(),
  listenersBefore,
  'importing the entries added process listeners',
);

// Globals, each entry in a fresh Node process with nothing loaded before it. The entries without
// React add none. `toolgate` adds exactly what @radix-ui/react-dialog adds on its own and nothing
// more: in Node its dependencies (react-remove-scroll, aria-hidden) load tslib's CommonJS build,
// which defines tslib's helpers (__extends, __assign, …) on globalThis; bundlers load tslib's ES
// module build, which defines none. The README says so.
const { spawnSync } = await import('node:child_process');
const globalsOf = (specifier) => {
  const code = `const b = new Set(Reflect.ownKeys(globalThis)); await import(${JSON.stringify(specifier)}); console.log(JSON.stringify(Reflect.ownKeys(globalThis).filter((k) => !b.has(k)).map(String).sort()));`;
  const child = spawnSync(process.execPath, ['--input-type=module', '-e', code], { encoding: 'utf8' });
  assert.equal(child.status, 0, `importing ${specifier} in a fresh process failed: ${child.stderr}`);
  return JSON.parse(child.stdout);
};
for (const name of ['toolgate/core', 'toolgate/testing', 'toolgate/adapters', 'toolgate/client', 'toolgate/json', 'toolgate/audit', 'toolgate/server', 'toolgate/otel']) {
  assert.deepEqual(globalsOf(name), [], `importing ${name} in a fresh process added globals`);
}
const radixGlobals = globalsOf('@radix-ui/react-dialog');
assert.deepEqual(globalsOf('toolgate'), radixGlobals, 'importing toolgate added globals other than those @radix-ui/react-dialog adds on its own');
assert.ok(radixGlobals.every((k) => k.startsWith('__')), `@radix-ui/react-dialog added globals other than tslib's helpers: ${radixGlobals.join(', ')}`);

for (const [name, mod] of Object.entries(entries)) {
  assert.ok(Object.keys(mod).length > 0, `${name} exports nothing`);
}
const kit = entries['toolgate'];
const core = entries['toolgate/core'];
const testing = entries['toolgate/testing'];
// The React entry re-exports core: the same functions, not a second copy.
assert.equal(kit.createToolStreamStore, core.createToolStreamStore, 'toolgate and toolgate/core hold two copies of the store');
assert.equal(kit.createToolgate, core.createToolgate);

// Rendering: console errors (React warnings included) fail the smoke test.
const errors = [];
const originalError = console.error;
console.error = (...args) => errors.push(args.map(String).join(' '));
try {
  const h = React.createElement;
  const store = kit.createToolStreamStore();
  const e = testing.toolEvents;
  for (const event of testing.callEvents('c1', { name: 'search_docs', arguments: { q: '<b>x</b>' } })) store.getState().dispatch(event);
  store.getState().dispatch(e.start('c2', { name: 'open_call' }));

  // The server renders the store's initial state (useSyncExternalStore's server snapshot).
  const list = renderToString(h(React.StrictMode, null, h(kit.ToolgateProvider, { store }, h(kit.ToolCallList))));
  assert.match(list, /No tool calls yet/, 'ToolCallList did not render its empty state on the server');

  const room = testing.createScriptedRoom({ tools: { transfer: { effect: 'write', risk: 'high', requiresConfirmation: true, run: () => ({ sent: true }) } } });
  const dialog = renderToString(
    h(React.StrictMode, null,
      h(kit.ConfirmToolDialog, {
        open: true,
        toolName: 'transfer',
        arguments: { to: 'bob', amount: 5 },
        room,
        descriptor: { effect: 'write', risk: 'high', requiresConfirmation: true },
        onResult: () => {},
        onOpenChange: () => {},
      }),
    ),
  );
  // Radix portals the dialog into document.body once mounted, so the server renders nothing for
  // it; what counts here is that it renders without an error or a warning and runs nothing.
  assert.equal(dialog, '');
  // The queue form, inside a provider with no session.
  renderToString(h(kit.ToolgateProvider, { store, room }, h(kit.ConfirmToolDialog)));
  // No effect ran on the server.
  assert.equal(room.effects.length, 0);

  // Markup from the installed package: argument text is data, never markup.
  const preview = renderToString(h(kit.ArgumentsPreview, { value: { q: '<b>x</b>', n: 5 } }));
  assert.match(preview, /&lt;b&gt;x&lt;\/b&gt;/, 'ArgumentsPreview did not show the argument text escaped');
  assert.doesNotMatch(preview, /<b>x<\/b>/, 'ArgumentsPreview rendered argument text as markup');
  const badge = renderToString(h(kit.ToolStatusBadge, { status: 'settled', ok: false, code: 'TIMEOUT' }));
  assert.match(badge, /TIMEOUT/, 'ToolStatusBadge did not show the failure code');
} finally {
  console.error = originalError;
}
if (errors.length > 0) {
  // One line per distinct message, with the component that logged it.
  const lines = [...new Set(errors.map((text) => `${text.split('\n')[0].slice(0, 160)} (${text.split('\n')[1]?.trim() ?? ''})`))];
  assert.fail(`rendering logged ${errors.length} errors:\n${lines.join('\n')}`);
}
// toolgate/server from the installed package: a token signed here verifies once, in plain Node.
const { createApprovalSigner } = entries['toolgate/server'];
const signer = createApprovalSigner({ secret: 'a smoke-test secret of at least 32 bytes' });
const approved = { toolName: 'transfer', argumentsFingerprint: '0'.repeat(64) };
const token = await signer.sign({ sessionId: 's1', callId: 'c1', editable: false, ...approved });
assert.equal((await signer.verify(token, approved)).ok, true, 'toolgate/server did not verify its own token');
assert.deepEqual(await signer.verify(token, approved).then((r) => r.reason), 'already-used', 'toolgate/server accepted a token twice');

// The stylesheet resolves through the exports map and holds the kit's classes.
const { readFile } = await import('node:fs/promises');
const css = await readFile(new URL(import.meta.resolve('toolgate/styles.css')), 'utf8');
assert.match(css, /\.toolgate-/, 'toolgate/styles.css does not hold the kit\'s classes');
console.log(`ok: React ${React.version}: ${Object.keys(entries).length} entries imported without import-time work; ToolCallList, ConfirmToolDialog, ArgumentsPreview and ToolStatusBadge rendered on the server; an approval token signed and verified once; styles.css resolved`);
