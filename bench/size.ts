/**
 * Bundle size, min+gzip, of each entry with react, react-dom, zustand and @radix-ui/* left out:
 * what an app adds by importing it. (npm test checks the built package with size-limit; this
 * measures the sources the same way, so the bench runs without a build.)
 */
import { build } from 'esbuild';
import { gzipSync } from 'node:zlib';
import type { Gate } from './main';

export interface SizeRow {
  entry: string;
  minifiedBytes: number;
  gzipBytes: number;
  limitBytes: number;
  goalBytes: number;
}

// `limit` is a gate against regression, at today's size with a little room; `goal` is where the
// kit is going (the first round's targets), printed and not failing the run.
const ENTRIES = [
  { entry: 'toolgate/core', file: 'src/core/index.ts', limit: 39_000, goal: 12_000 },
  // The whole of `toolgate` bundled without code splitting holds its lazy parts (the windowing, the
  // dialog itself, its editor) inlined, each wrapped to start on first use: about 2.5 kB over the parts themselves.
  { entry: 'toolgate', file: 'src/index.ts', limit: 86_700, goal: 20_000 },
];

export async function benchSize(): Promise<{ rows: SizeRow[]; gates: Gate[] }> {
  const rows: SizeRow[] = [];
  for (const { entry, file, limit, goal } of ENTRIES) {
    const result = await build({
      entryPoints: [file],
      bundle: true,
      minify: true,
      format: 'esm',
      write: false,
      external: ['react', 'react-dom', 'react/jsx-runtime', 'zustand', 'zustand/*', '@radix-ui/*'],
      logLevel: 'error',
    });
    const code = result.outputFiles[0]?.contents ?? new Uint8Array();
    rows.push({ entry, minifiedBytes: code.length, gzipBytes: gzipSync(code, { level: 9 }).length, limitBytes: limit, goalBytes: goal });
  }
  console.log('\nBundle size (min+gzip; react, react-dom, zustand, @radix-ui/* external)\n');
  for (const r of rows) console.log(`${r.entry.padEnd(14)} ${String(r.gzipBytes).padStart(6)} B gzip  (${r.minifiedBytes} B min)  limit ${r.limitBytes} B, goal ${r.goalBytes} B`);
  const kb = (bytes: number) => `${(bytes / 1000).toFixed(1)} kB`;
  return {
    rows,
    gates: rows.flatMap((r) => [
      { kind: 'gate' as const, name: `${r.entry}: min+gzip`, measured: kb(r.gzipBytes), limit: `≤ ${kb(r.limitBytes)}`, pass: r.gzipBytes <= r.limitBytes },
      { kind: 'goal' as const, name: `${r.entry}: min+gzip`, measured: kb(r.gzipBytes), limit: `≤ ${kb(r.goalBytes)}`, pass: r.gzipBytes <= r.goalBytes },
    ]),
  };
}
