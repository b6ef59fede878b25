// @vitest-environment node
/**
 * Screenshots of the stories, from the static Storybook (`storybook build`, once per run) in
 * Debian's Chromium, in both themes, compared with the baselines committed in test/screenshots/.
 * A difference beyond a small tolerance fails and leaves the actual and diff images in
 * .vitest-results/screenshots/; an intended change is taken on purpose with
 * `npm run screenshots:update`, which rewrites the baselines.
 *
 * Deterministic by construction: a fixed viewport at device scale 1, reduced motion and CSS
 * animations stopped, the caret hidden, and each shot taken once the story's play function has
 * finished (Storybook's render phase) and the fonts have loaded.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import pixelmatch from 'pixelmatch';
import { PNG } from 'pngjs';
import type { Browser } from 'playwright';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { serveDemo } from '../../demo/serve.mjs';
import { launchChromium } from './harness';
import { ROOT, storybookStatic } from './run-builds';

/** The stories under screenshot, by the ids of the built Storybook's index.json. */
const STORIES = [
  // The state matrices.
  'components-toolcalllist--matrix-of-states',
  'confirm-confirmtooldialog--matrix-of-states',
  // The card's states.
  'components-toolcallcard--pending',
  'components-toolcallcard--streaming-short',
  'components-toolcallcard--issued',
  'components-toolcallcard--progress-determinate',
  'components-toolcallcard--awaiting-approval',
  'components-toolcallcard--settled-ok',
  'components-toolcallcard--rejected',
  'components-toolcallcard--timeout',
  'components-toolcallcard--cancelled-with-late-outcome',
  'components-toolcallcard--failed-model-stopped',
  'components-toolcallcard--ran-arguments-edited',
  'components-toolcallcard--output-final',
  // The dialog's states.
  'confirm-confirmtooldialog--reviewing-medium-risk-write',
  'confirm-confirmtooldialog--confirm-step-typed-name',
  'confirm-edits-grants-batches-and-expiry--edited-with-diff',
  'confirm-edits-grants-batches-and-expiry--batch',
  'confirm-edits-grants-batches-and-expiry--expired',
  'confirm-edits-grants-batches-and-expiry--answered-by-grant',
  // Lists: nested calls, and a list at scale.
  'components-toolcalllist--nested-calls',
  'components-toolcalllist-at-scale--ten-thousand-calls',
] as const;
const THEMES = ['light', 'dark'] as const;

const BASELINES = join(ROOT, 'test', 'screenshots');
const FAILURES = join(ROOT, '.vitest-results', 'screenshots');
const UPDATE = process.env['UPDATE_SCREENSHOTS'] === '1';
/** pixelmatch's per-pixel colour threshold, and the share of pixels that may differ (anti-aliasing). */
const PIXEL_THRESHOLD = 0.1;
const MAX_DIFFERENT = 0.001;
/** One story's page, shot and comparison, on a loaded machine. */
const SHOT_MS = 180_000;

let browser: Browser;
let server: Awaited<ReturnType<typeof serveDemo>>;
beforeAll(async () => {
  const dir = await storybookStatic();
  server = await serveDemo({ root: dir, target: 'ws://127.0.0.1:9' });
  browser = await launchChromium(['--font-render-hinting=none', '--hide-scrollbars']);
}, 300_000);
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

/** The story as Chromium shows it once its play function has finished. */
async function shoot(id: string, theme: (typeof THEMES)[number]): Promise<Buffer> {
  const page = await browser.newPage({ viewport: { width: 1024, height: 768 }, deviceScaleFactor: 1, reducedMotion: 'reduce', colorScheme: 'light' });
  // A story that waits on its page (the expiry stories move a clock through 30 s of ticks) may take a while.
  page.setDefaultTimeout(150_000);
  try {
    // Storybook ends a render whose play function threw in the phase 'finished' too: hear the
    // preview's own events instead, so a failed play is never taken for the story's picture.
    await page.addInitScript(() => {
      type Channel = { on(event: string, listener: (payload: unknown) => void): void };
      const w = window as unknown as { __shotErrors: string[] };
      w.__shotErrors = [];
      let channel: Channel | undefined;
      Object.defineProperty(window, '__STORYBOOK_ADDONS_CHANNEL__', {
        configurable: true,
        get: () => channel,
        set: (value: Channel) => {
          channel = value;
          value.on('playFunctionThrewException', (error) => w.__shotErrors.push(`the play function threw: ${(error as { message?: string }).message ?? String(error)}`));
          value.on('storyThrewException', (error) => w.__shotErrors.push(`the story threw: ${(error as { message?: string }).message ?? String(error)}`));
          value.on('storyFinished', (payload) => {
            if ((payload as { status?: string }).status === 'error') w.__shotErrors.push('the story finished with an error');
          });
        },
      });
    });
    await page.goto(`${server.url}iframe.html?id=${id}&viewMode=story&globals=theme:${theme};a11y.manual:!true`);
    // Storybook's render of the story: 'finished' once the play function and afterEach ran. Axe is
    // not run here (a11y.manual): the story tests run it in both themes; a shot only needs the pixels.
    // The same render must still be the current one a moment later: a story may render again (its
    // globals from the address), and an earlier render's 'finished' is not the picture to take.
    await page.waitForFunction(() => {
      type Render = { phase?: string };
      const w = window as unknown as { __STORYBOOK_PREVIEW__?: { currentRender?: Render }; __shotSeen?: { render: Render; at: number } };
      const render = w.__STORYBOOK_PREVIEW__?.currentRender;
      if (render?.phase === 'errored') return true;
      if (render?.phase !== 'finished') return false;
      if (w.__shotSeen?.render !== render) w.__shotSeen = { render, at: performance.now() };
      return performance.now() - w.__shotSeen.at > 500;
    }, undefined, { polling: 100 });
    const phase = await page.evaluate(() => (window as unknown as { __STORYBOOK_PREVIEW__: { currentRender: { phase: string } } }).__STORYBOOK_PREVIEW__.currentRender.phase);
    if (phase !== 'finished') throw new Error(`${id} (${theme}): the story's render ended ${phase}`);
    const errors = await page.evaluate(() => (window as unknown as { __shotErrors: string[] }).__shotErrors);
    if (errors.length > 0) throw new Error(`${id} (${theme}): ${errors.join('; ')}`);
    await page.evaluate(async () => {
      // The picture is the top of the story: where the page scrolled to depends on which control
      // took focus last, and on a loaded machine that is a matter of timing, not of the story.
      window.scrollTo(0, 0);
      await document.fonts.ready;
      await new Promise<void>((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => resolve())));
    });
    return await page.screenshot({ animations: 'disabled', caret: 'hide', scale: 'css' });
  } finally {
    await page.close();
  }
}

/** How far `actual` is from the baseline, or why it cannot be compared. */
function compare(baseline: Buffer, actual: Buffer): { different: number; diff?: PNG; reason?: string } {
  const a = PNG.sync.read(baseline);
  const b = PNG.sync.read(actual);
  if (a.width !== b.width || a.height !== b.height) return { different: 1, reason: `size ${b.width}×${b.height}, baseline ${a.width}×${a.height}` };
  const diff = new PNG({ width: a.width, height: a.height });
  const pixels = pixelmatch(a.data, b.data, diff.data, a.width, a.height, { threshold: PIXEL_THRESHOLD });
  return { different: pixels / (a.width * a.height), diff };
}

// Several pages at a time (vitest's maxConcurrency, 5): Chromium renders them while the test waits on each.
describe.concurrent('screenshots of the static Storybook', { timeout: SHOT_MS }, () => {
  for (const theme of THEMES) {
    for (const id of STORIES) {
      it(`${id} in the ${theme} theme looks as its baseline`, async ({ expect }) => {
        const actual = await shoot(id, theme);
        const baselinePath = join(BASELINES, theme, `${id}.png`);
        if (UPDATE) {
          mkdirSync(join(BASELINES, theme), { recursive: true });
          writeFileSync(baselinePath, actual);
          return;
        }
        expect(existsSync(baselinePath), `no baseline for ${id} (${theme}): run npm run screenshots:update`).toBe(true);
        const { different, diff, reason } = compare(readFileSync(baselinePath), actual);
        if (different > MAX_DIFFERENT) {
          mkdirSync(join(FAILURES, theme), { recursive: true });
          writeFileSync(join(FAILURES, theme, `${id}.actual.png`), actual);
          if (diff) writeFileSync(join(FAILURES, theme, `${id}.diff.png`), PNG.sync.write(diff));
        }
        const where = `${id} (${theme}) differs from test/screenshots/${theme}/${id}.png; see .vitest-results/screenshots/${theme}/, and take an intended change with npm run screenshots:update`;
        expect(reason, where).toBeUndefined();
        expect(different, `${where}: share of pixels that differ`).toBeLessThanOrEqual(MAX_DIFFERENT);
      });
    }
  }
});
