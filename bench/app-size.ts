/**
 * What an app adds at first load by using the kit, measured as a user would: real Vite production
 * builds (default config, Lightning CSS, Rolldown) of small React apps, one with React alone and one
 * per use of the kit, and the gzip size of the JavaScript and CSS their index.html loads at once
 * (its module script and modulepreload links; chunks loaded later by `import()` are not counted).
 * The kit resolves to its sources, as in the demo; React, ReactDOM and the kit's own dependencies
 * (zustand, Radix, the windowing) are bundled, so the difference is the kit and everything it brings.
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import type { Gate } from './main';

export interface AppSizeRow {
  app: string;
  jsGzipBytes: number;
  cssGzipBytes: number;
  /** JS over the React-only app's. */
  addedJsGzipBytes: number;
}

const ALIAS: Record<string, string> = {
  'toolgate/core': 'src/core/index.ts',
  'toolgate/styles.css': 'src/styles.css',
  toolgate: 'src/index.ts',
};

// Each app renders one thing; `plain` is the baseline every other is compared with.
const APPS: { app: string; source: string }[] = [
  {
    app: 'React alone',
    source: `import { createRoot } from 'react-dom/client';
createRoot(document.getElementById('root')!).render(<p>Hello</p>);`,
  },
  {
    app: 'createToolStreamStore alone',
    source: `import { createRoot } from 'react-dom/client';
import { createToolStreamStore } from 'toolgate/core';
const store = createToolStreamStore();
createRoot(document.getElementById('root')!).render(<p>{store.getState().order.length}</p>);`,
  },
  {
    app: 'ToolgateProvider + ToolCallList + ConfirmToolDialog',
    source: `import { createRoot } from 'react-dom/client';
import { ConfirmToolDialog, ToolCallList, ToolgateProvider } from 'toolgate';
import type { ToolSession } from 'toolgate';
import 'toolgate/styles.css';
// A session with no events: the size is the kit's, not a client's.
const session: ToolSession = { subscribe: () => () => {}, onToolCall: () => () => {}, send: () => {}, status: 'open' };
createRoot(document.getElementById('root')!).render(
  <ToolgateProvider session={session}>
    <ToolCallList />
    <ConfirmToolDialog />
  </ToolgateProvider>,
);`,
  },
];

const gzip = (file: string) => gzipSync(readFileSync(file), { level: 9 }).length;

/** The files an index.html loads at once: its module scripts, modulepreloads and stylesheets. */
function firstLoad(dist: string): { js: string[]; css: string[] } {
  const html = readFileSync(join(dist, 'index.html'), 'utf8');
  const refs = [...html.matchAll(/(?:src|href)="\.?\/?([^"]+\.(?:js|css))"/g)].map((m) => m[1]!);
  return { js: refs.filter((r) => r.endsWith('.js')), css: refs.filter((r) => r.endsWith('.css')) };
}

/** A module's share of the first load: its bytes as rendered into the chunks index.html loads at once (before minification). */
export interface AppSizePart {
  part: string;
  renderedBytes: number;
}

/** Groups a module id as a reader looks for it: a kit file by its path, a package by its name. */
function partOf(id: string, root: string): string {
  const clean = id.replace(/\?.*$/, '').replace(/^\0/, '');
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(clean);
  if (pkg) return pkg[1]!;
  return clean.startsWith(root) ? clean.slice(root.length + 1) : clean;
}

export async function benchAppSize(root: string): Promise<{ rows: AppSizeRow[]; parts: Record<string, AppSizePart[]>; gates: Gate[] }> {
  const { build } = await import('vite');
  const { default: react } = await import('@vitejs/plugin-react');
  const work = join(root, 'bench', '.work', 'app-size');
  rmSync(work, { recursive: true, force: true });
  const measured: Omit<AppSizeRow, 'addedJsGzipBytes'>[] = [];
  const parts: Record<string, AppSizePart[]> = {};
  for (const [index, { app, source }] of APPS.entries()) {
    const dir = join(work, String(index));
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'index.html'), '<!doctype html><div id="root"></div><script type="module" src="./main.tsx"></script>\n');
    writeFileSync(join(dir, 'main.tsx'), source + '\n');
    process.stdout.write(`size: building "${app}"…\n`);
    // Each module's rendered bytes (tree-shaken, before minification), per chunk, to say what the first load is made of.
    const chunks = new Map<string, Record<string, number>>();
    const listing = {
      name: 'first-load-listing',
      generateBundle(_options: unknown, bundle: Record<string, { type: string; modules?: Record<string, { renderedLength: number }> }>) {
        for (const [file, chunk] of Object.entries(bundle)) {
          if (chunk.type !== 'chunk' || chunk.modules === undefined) continue;
          chunks.set(file, Object.fromEntries(Object.entries(chunk.modules).map(([id, m]) => [id, m.renderedLength])));
        }
      },
    };
    await build({
      root: dir,
      base: './',
      configFile: false,
      logLevel: 'error',
      plugins: [react(), listing],
      // The app's own default config: only the kit's entries are mapped (to its sources).
      resolve: {
        alias: [
          ...Object.entries(ALIAS).map(([find, file]) => ({ find, replacement: join(root, file) })),
        ],
      },
      build: { outDir: join(dir, 'dist'), emptyOutDir: true },
    });
    const dist = join(dir, 'dist');
    const { js, css } = firstLoad(dist);
    const byPart = new Map<string, number>();
    for (const file of js) {
      for (const [id, bytes] of Object.entries(chunks.get(file) ?? {})) byPart.set(partOf(id, root), (byPart.get(partOf(id, root)) ?? 0) + bytes);
    }
    parts[app] = [...byPart].map(([part, renderedBytes]) => ({ part, renderedBytes })).filter((p) => p.renderedBytes > 0).sort((a, b) => b.renderedBytes - a.renderedBytes);
    measured.push({
      app,
      jsGzipBytes: js.reduce((n, f) => n + gzip(join(dist, f)), 0),
      cssGzipBytes: css.reduce((n, f) => n + gzip(join(dist, f)), 0),
    });
  }
  const baseline = measured[0]!.jsGzipBytes;
  const rows = measured.map((m) => ({ ...m, addedJsGzipBytes: m.jsGzipBytes - baseline }));
  console.log('\nWhat an app loads at first (a Vite production build, default config; gzip)\n');
  for (const r of rows) {
    console.log(`${r.app.padEnd(52)} JS ${(r.jsGzipBytes / 1000).toFixed(1).padStart(6)} kB  (+${(r.addedJsGzipBytes / 1000).toFixed(1)} kB over React alone)  CSS ${(r.cssGzipBytes / 1000).toFixed(1)} kB`);
  }
  // What the first load of each kit app is made of, beside React's (rendered bytes before minification: gzip does not add up per module).
  for (const app of APPS.slice(1).map((a) => a.app)) {
    const list = (parts[app] ?? []).filter((p) => p.part !== 'react' && p.part !== 'react-dom' && p.part !== 'scheduler');
    const total = list.reduce((n, p) => n + p.renderedBytes, 0);
    console.log(`\nFirst load of "${app}", beside React: ${(total / 1000).toFixed(1)} kB rendered (before minification and gzip); the largest parts\n`);
    for (const p of list.slice(0, 25)) console.log(`  ${(p.renderedBytes / 1000).toFixed(1).padStart(6)} kB  ${p.part}`);
  }
  const added = (app: string) => rows.find((r) => r.app === app)!.addedJsGzipBytes;
  const kb = (n: number) => `${(n / 1000).toFixed(1)} kB`;
  const fullApp = added('ToolgateProvider + ToolCallList + ConfirmToolDialog');
  const storeAlone = added('createToolStreamStore alone');
  return {
    rows,
    parts,
    gates: [
      // Gates hold today's sizes against regression (with a little room); goals are where the kit is going.
      { kind: 'gate', name: 'app with provider, list and dialog: JS added at first load', measured: kb(fullApp), limit: '≤ 42.5 kB', pass: fullApp <= 42_500 },
      { kind: 'goal', name: 'app with provider, list and dialog: JS added at first load', measured: kb(fullApp), limit: '≤ 35 kB', pass: fullApp <= 35_000 },
      { kind: 'gate', name: 'app with createToolStreamStore alone: JS added', measured: kb(storeAlone), limit: '≤ 11.4 kB', pass: storeAlone <= 11_400 },
      { kind: 'goal', name: 'app with createToolStreamStore alone: JS added', measured: kb(storeAlone), limit: '≤ 8 kB', pass: storeAlone <= 8_000 },
    ],
  };
}
