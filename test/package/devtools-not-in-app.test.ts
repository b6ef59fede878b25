// @vitest-environment node
// toolgate/devtools is loaded only by apps that import it: the kit's other entries, bundled whole as
// an app's bundler would (esbuild, production, React left out), carry none of its code, while the
// devtools entry itself does (so the markers below are the right ones to look for).
import { build } from 'esbuild';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../', import.meta.url));

async function bundle(entry: string): Promise<string> {
  const result = await build({
    entryPoints: [`${root}${entry}`],
    bundle: true,
    write: false,
    format: 'esm',
    minify: false,
    platform: 'browser',
    define: { 'process.env.NODE_ENV': '"production"' },
    external: ['react', 'react-dom', 'react/jsx-runtime', 'react-dom/client', '@tanstack/react-devtools'],
    logLevel: 'silent',
  });
  return result.outputFiles.map((file) => file.text).join('\n');
}

// Words only the devtools' modules hold: the panel's title, the recorder's entry names, the export.
const MARKERS = ['Toolgate devtools', 'createDevtoolsRecorder', 'toolgate-recording-', 'Steps of call'];

describe('toolgate/devtools stays out of an app that does not import it', () => {
  it('is in the devtools entry', async () => {
    const code = await bundle('src/devtools/index.ts');
    for (const marker of MARKERS) expect(code, marker).toContain(marker);
  });

  it.each(['src/index.ts', 'src/core/index.ts', 'src/renderers/index.ts', 'src/testing/index.ts'])('is not in %s', async (entry) => {
    const code = await bundle(entry);
    for (const marker of MARKERS) expect(code, `${entry} holds ${marker}`).not.toContain(marker);
  });
});
