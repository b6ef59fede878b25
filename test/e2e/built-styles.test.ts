// @vitest-environment node
/**
 * The stylesheet as users receive it: built by the production pipelines apps use, then shown in
 * Chromium, where the computed colours of a card, the dialog and its overlay must be the kit's, in
 * the light and the dark theme (docs/theming.md). Each pipeline is built once per run:
 * - a consumer app built by Vite 8 with its default config, importing the packed package;
 * - a Next.js 16 production build (static export) of the same page, through the 'use client' entry;
 * - esbuild bundling the same page and the stylesheet;
 * - the demo's own build (test/e2e/global-setup.ts);
 * - the static Storybook.
 * The page (test/fixtures/built-styles/) also holds a card in a panel where the app overrides
 * two colours in its own CSS, one with its own light-dark().
 */
import { cpSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { build as esbuild } from 'esbuild';
import type { Page } from 'playwright';
import { beforeAll, describe, expect, it } from 'vitest';
import { serveDemo } from '../../demo/serve.mjs';
import { openDemo, startTurn, useChromium, useStack } from './harness';
import { ROOT, once, packedPackage, runStep, storybookStatic } from './run-builds';

const FIXTURE = join(ROOT, 'test', 'fixtures', 'built-styles');
const BUILD_MS = 300_000;
/** A page of a built app under load: loading it, and for the demo a turn up to its dialog. */
const PAGE_MS = 120_000;

interface Palette {
  readonly bg: string;
  readonly fg: string;
  readonly border: string;
  readonly overlay: string;
  /** The panel's override: light-dark(rgb(250, 240, 230), rgb(20, 30, 40)). */
  readonly panelBg: string;
}
const LIGHT: Palette = { bg: 'rgb(255, 255, 255)', fg: 'rgb(28, 29, 33)', border: 'rgb(213, 216, 221)', overlay: 'rgba(16, 18, 24, 0.55)', panelBg: 'rgb(250, 240, 230)' };
const DARK: Palette = { bg: 'rgb(24, 25, 29)', fg: 'rgb(236, 237, 241)', border: 'rgb(59, 62, 71)', overlay: 'rgba(0, 0, 0, 0.65)', panelBg: 'rgb(20, 30, 40)' };

/** The colours Chromium computed for a card, the open dialog and its overlay. */
async function kitColours(page: Page, cardSelector: string) {
  return page.evaluate((cardSelector) => {
    const style = (selector: string) => {
      const element = document.querySelector(selector);
      return element ? getComputedStyle(element) : undefined;
    };
    const card = style(cardSelector);
    const dialog = style('.toolgate-confirm');
    return {
      card: card && { border: card.borderTopColor, background: card.backgroundColor, text: card.color },
      dialog: dialog && { border: dialog.borderTopColor, background: dialog.backgroundColor, text: dialog.color },
      overlay: style('.toolgate-confirm-overlay')?.backgroundColor,
    };
  }, cardSelector);
}

function expected(palette: Palette) {
  return {
    card: { border: palette.border, background: palette.bg, text: palette.fg },
    dialog: { border: palette.border, background: palette.bg, text: palette.fg },
    overlay: palette.overlay,
  };
}

const browser = useChromium();

/** Serve a built folder and open `path` in Chromium with the OS in light or dark mode. */
async function openBuilt(dir: string, path: string, os: 'light' | 'dark') {
  const server = await serveDemo({ root: dir, target: 'ws://127.0.0.1:9' });
  const page = await browser().newPage({ colorScheme: os, viewport: { width: 1200, height: 900 } });
  page.setDefaultTimeout(PAGE_MS / 2);
  const problems: string[] = [];
  page.on('pageerror', (error) => problems.push(error.message));
  await page.goto(new URL(path, server.url).href);
  return {
    page,
    problems,
    async close() {
      await page.close();
      await server.close();
    },
  };
}

/** The app page's theme states: where the theme comes from, and which palette the kit must show. */
const STATES = [
  { named: 'a light page in a light OS', os: 'light', palette: LIGHT },
  { named: 'a page that declares no color-scheme in a dark OS (it stays light)', os: 'dark', palette: LIGHT },
  { named: 'data-theme="dark" on <html>', os: 'light', theme: 'dark', palette: DARK },
  { named: 'the page’s own color-scheme: dark', os: 'light', pageDark: true, palette: DARK },
  { named: 'data-theme="light" on a page whose color-scheme is dark', os: 'dark', theme: 'light', pageDark: true, palette: LIGHT },
  { named: 'data-theme="system" in a dark OS', os: 'dark', theme: 'system', palette: DARK },
  { named: 'data-theme="system" in a light OS', os: 'light', theme: 'system', palette: LIGHT },
] as const satisfies readonly { named: string; os: 'light' | 'dark'; theme?: string; pageDark?: boolean; palette: Palette }[];

/** The fixture page's checks, for a pipeline whose built page is at `path` under the folder `build()` gives. */
function checksOfTheAppPage(pipeline: string, build: () => Promise<string>, path: string) {
  describe(pipeline, () => {
    let dir: string;
    beforeAll(async () => {
      dir = await build();
    }, BUILD_MS);

    for (const os of ['light', 'dark'] as const) {
      it(`shows the kit's colours in every theme state with the OS in ${os} mode`, async () => {
        const opened = await openBuilt(dir, path, os);
        const { page } = opened;
        await page.locator('.toolgate-confirm').waitFor();
        await page.locator('.assistant-panel .toolgate-card').waitFor();
        for (const state of STATES.filter((s) => s.os === os)) {
          await page.evaluate(({ theme, pageDark }) => {
            const html = document.documentElement;
            if (theme) html.dataset['theme'] = theme;
            else delete html.dataset['theme'];
            html.classList.toggle('dark-page', pageDark);
          }, { theme: 'theme' in state ? state.theme : undefined, pageDark: 'pageDark' in state && state.pageDark });
          const seen = await kitColours(page, '#plain .toolgate-card');
          expect({ pipeline, state: state.named, ...seen }).toEqual({ pipeline, state: state.named, ...expected(state.palette) });
          // The app's overrides, set on an ancestor in its own CSS: one colour in both themes, one light-dark().
          const panel = await kitColours(page, '.assistant-panel .toolgate-card');
          expect({ pipeline, state: state.named, panel: panel.card }).toEqual({
            pipeline,
            state: state.named,
            panel: { border: 'rgb(1, 2, 3)', background: state.palette.panelBg, text: state.palette.fg },
          });
        }
        expect(opened.problems).toEqual([]);
        await opened.close();
      }, PAGE_MS);
    }
  });
}

/** The fixture app's sources, with the app's own tsconfig (so no tool reads the repository's paths, which map `toolgate` to src/). */
function copyApp(dir: string) {
  cpSync(FIXTURE, dir, { recursive: true });
  writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions: { jsx: 'react-jsx', module: 'esnext', moduleResolution: 'bundler', target: 'es2022' } }));
}

checksOfTheAppPage(
  'Vite 8, default config, the packed package',
  async () => {
    await packedPackage();
    const dir = await once('vite-app', async (app) => {
      copyApp(app);
      // An app's vite.config as `npm create vite` writes it: the React plugin, nothing else.
      writeFileSync(join(app, 'vite.config.mjs'), "import react from '@vitejs/plugin-react';\nexport default { plugins: [react()] };\n");
      await runStep('Vite 8 (default config)', process.execPath, [join(ROOT, 'node_modules', 'vite', 'bin', 'vite.js'), 'build', '--logLevel', 'warn'], { cwd: app, timeoutMs: BUILD_MS });
    });
    return join(dir, 'dist');
  },
  '/',
);

checksOfTheAppPage(
  'Next.js 16 production build (static export)',
  async () => {
    await packedPackage();
    const dir = await once('next-app', async (app) => {
      copyApp(app);
      await runStep('Next.js 16 (next build)', process.execPath, [join(ROOT, 'node_modules', 'next', 'dist', 'bin', 'next'), 'build'], {
        cwd: app,
        env: { NEXT_TELEMETRY_DISABLED: '1' },
        timeoutMs: BUILD_MS,
      });
    });
    return join(dir, 'out');
  },
  '/',
);

checksOfTheAppPage(
  'esbuild',
  async () => {
    await packedPackage();
    const dir = await once('esbuild-app', async (app) => {
      copyApp(app);
      try {
        await esbuild({
          absWorkingDir: app,
          entryPoints: ['entry.tsx'],
          bundle: true,
          minify: true,
          format: 'esm',
          jsx: 'automatic',
          outdir: 'dist',
          // Browsers older than light-dark(), so that esbuild lowers what it can.
          target: ['chrome107', 'firefox104', 'safari16'],
          define: { 'process.env.NODE_ENV': '"production"' },
          logLevel: 'silent',
        });
      } catch (error) {
        throw new Error(`esbuild: ${(error as Error).message}`);
      }
      writeFileSync(
        join(app, 'dist', 'index.html'),
        '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>esbuild app</title><link rel="stylesheet" href="./entry.css"></head>' +
          '<body><div id="root"></div><script type="module" src="./entry.js"></script></body></html>',
      );
    });
    return join(dir, 'dist');
  },
  '/',
);

describe("the demo's build (demo/vite.config.ts)", () => {
  const stack = useStack({}, PAGE_MS);

  for (const [theme, palette] of [['light', LIGHT], ['dark', DARK]] as const) {
    it(`shows the kit's colours with ?theme=${theme}`, async () => {
      const { page, problems } = await openDemo(stack, { speed: 4, theme });
      await startTurn(page, 'deploy');
      await page.getByRole('dialog').waitFor();
      // The open dialog hides the page from the accessibility tree (aria-hidden): find the card by its class.
      await page.locator('.toolgate-card').first().waitFor();
      expect({ pipeline: 'demo', ...(await kitColours(page, '.toolgate-card')) }).toEqual({ pipeline: 'demo', ...expected(palette) });
      expect(problems).toEqual([]);
      await page.close();
    }, PAGE_MS);
  }
});

describe('the static Storybook (storybook build)', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await storybookStatic();
  }, BUILD_MS);

  for (const [theme, palette] of [['light', LIGHT], ['dark', DARK]] as const) {
    it(`shows a card and the dialog in the kit's colours in the ${theme} theme`, async () => {
      const cardStory = await openBuilt(dir, `iframe.html?id=components-toolcallcard--settled-ok&viewMode=story&globals=theme:${theme}`, 'light');
      await cardStory.page.locator('.toolgate-card').waitFor();
      const { card: seenCard } = await kitColours(cardStory.page, '.toolgate-card');
      await cardStory.close();
      const dialogStory = await openBuilt(dir, `iframe.html?id=confirm-confirmtooldialog--reviewing-medium-risk-write&viewMode=story&globals=theme:${theme}`, 'light');
      await dialogStory.page.locator('.toolgate-confirm').waitFor();
      const { dialog, overlay } = await kitColours(dialogStory.page, '.toolgate-card');
      await dialogStory.close();
      expect({ pipeline: 'storybook', card: seenCard, dialog, overlay }).toEqual({ pipeline: 'storybook', ...expected(palette) });
    }, PAGE_MS);
  }
});
