import { defineConfig } from 'tsdown';

// The published package: ESM and .d.ts, one file per source module under dist/, an entry file per
// export (index, core, testing, adapters, client, ai-sdk, ag-ui, json, audit, policy, renderers, server, otel, mcp-apps, devtools), dependencies and peers left as imports. `npm run build` writes dist/; `npm test` builds once,
// packs, and checks the tarball (scripts/pack.mjs).
export default defineConfig({
  entry: {
    index: 'src/index.ts',
    core: 'src/core/index.ts',
    testing: 'src/testing/index.ts',
    adapters: 'src/adapters/index.ts',
    client: 'src/client/index.ts',
    'ai-sdk': 'src/bridges/ai-sdk/index.ts',
    'ag-ui': 'src/bridges/ag-ui/index.ts',
    json: 'src/core/json/index.ts',
    audit: 'src/core/audit/index.ts',
    policy: 'src/core/policy/index.ts',
    renderers: 'src/renderers/index.ts',
    server: 'src/server/index.ts',
    otel: 'src/otel/index.ts',
    'mcp-apps': 'src/mcp-apps/index.ts',
    devtools: 'src/devtools/index.ts',
  },
  format: 'esm',
  platform: 'neutral',
  target: 'es2022',
  outDir: 'dist',
  clean: true,
  dts: { tsconfig: 'tsconfig.build.json' },
  tsconfig: 'tsconfig.build.json',
  sourcemap: false,
  // One file per source module, so an app's bundler drops whole modules it does not use
  // (package.json's `sideEffects` says the kit's modules do nothing when imported).
  unbundle: true,
  // Keep imported constants as imports: inlined, they left a bare `import "./wire.js"` behind,
  // which bundlers warn about in every app that builds with the kit.
  inputOptions: { optimization: { inlineConst: false } },
  // The .d.ts build dominates the time by nature; rolldown's timing hint says nothing new.
  checks: { pluginTimings: false },
  // package.json is edited by hand: tsdown must not rewrite it.
  exports: false,
  publint: false,
  attw: false,
  copy: [{ from: 'src/styles.css', to: 'dist' }],
});
