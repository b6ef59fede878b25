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
}

const ENTRIES = [
  { entry: 'toolgate/core', file: 'src/core/index.ts', limit: 6_000 },
  { entry: 'toolgate', file: 'src/index.ts', limit: 15_000 },
];

export async function benchSize(): Promise<{ rows: SizeRow[]; gates: Gate[] }> {
  const rows: SizeRow[] = [];
  for (const { entry, file, limit } of ENTRIES) {
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
    rows.push({ entry, minifiedBytes: code.length, gzipBytes: gzipSync(code, { level: 9 }).length, limitBytes: limit });
  }
  console.log('\nBundle size (min+gzip; react, react-dom, zustand, @radix-ui/* external)\n');
  for (const r of rows) console.log(`${r.entry.padEnd(14)} ${String(r.gzipBytes).padStart(6)} B gzip  (${r.minifiedBytes} B min)  limit ${r.limitBytes} B`);
  return {
    rows,
    gates: rows.map((r) => ({
      kind: 'gate' as const,
      name: `${r.entry}: min+gzip`,
      measured: `${(r.gzipBytes / 1000).toFixed(1)} kB`,
      limit: `≤ ${r.limitBytes / 1000} kB`,
      pass: r.gzipBytes <= r.limitBytes,
    })),
  };
}
