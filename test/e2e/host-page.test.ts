// @vitest-environment node
/**
 * The stylesheet touches only the kit. A plain page (no colours of its own, and a panel with a
 * white background of its own) holds the kit's real components, rendered by React; Chromium shows
 * it with the OS in light and in dark mode (Playwright's emulated prefers-color-scheme), with and
 * without data-theme on the page (with none, the kit follows the page: light here in either OS
 * mode; data-theme="system" follows the OS). The page's own elements must compute exactly the styles they
 * have without toolgate/styles.css, while the kit's elements take the kit's theme, pass axe, and
 * take an override set on their ancestor.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createElement as h } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import type { Browser, Page } from 'playwright';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ArgumentsPreview,
  ToolCallList,
  ToolProgress,
  ToolStatusBadge,
  ToolTimeline,
  ToolgateProvider,
  createToolStreamStore,
} from 'toolgate';
import { callEvents, toolEvents } from 'toolgate/testing';
import { launchChromium } from './harness';

const stylesheet = readFileSync(new URL('../../src/styles.css', import.meta.url), 'utf8');
const axeSource = createRequire(import.meta.url).resolve('axe-core/axe.min.js');

/** The kit's components as React renders them: a list of calls in every outcome, a timeline, and parts on their own. */
function kitMarkup(): string {
  let time = 1_000;
  const store = createToolStreamStore({ now: () => (time += 250) });
  const { dispatch } = store.getState();
  for (const event of callEvents('c1', { name: 'search', arguments: { query: 'cats', limit: 5 } })) dispatch(event);
  for (const event of callEvents('c2', { name: 'send_invoice', arguments: { amount: 1250 }, risk: 'high', outcome: { ok: false, code: 'REJECTED' } })) dispatch(event);
  for (const event of callEvents('c3', { name: 'render_chart', arguments: { series: [1, 2, 3] }, outcome: 'open' })) dispatch(event);
  dispatch(toolEvents.progress('c3', { done: 2, total: 5 }));
  for (const event of callEvents('c4', { name: 'lookup', arguments: { id: 7 }, outcome: 'cancelled' })) dispatch(event);
  dispatch(toolEvents.start('c5', { name: 'write_file' }));
  dispatch(toolEvents.delta('c5', '{"path":"notes.txt","text":"half wri'));
  return renderToStaticMarkup(
    h(
      ToolgateProvider,
      { store },
      h(ToolCallList, null),
      h(ToolTimeline, { now: time }),
      h(ToolStatusBadge, { status: 'settled', ok: false, code: 'TIMEOUT' }),
      h(ToolProgress, { progress: { done: 1, total: 4 } }),
      h(ArgumentsPreview, { value: { to: 'bob@example.com', amount: 5, urgent: true, note: null } }),
    ),
  );
}

/** The host's own elements, by id; the page sets no colour on any of them except the white panel. */
const HOST_IDS = ['host-root', 'host-body', 'host-title', 'host-text', 'host-link', 'host-input', 'host-button', 'host-select', 'host-area', 'host-panel', 'host-panel-text'];

function pageHtml(kit: string, options: { styles: boolean; theme?: 'light' | 'dark' | 'system' }): string {
  const theme = options.theme === undefined ? '' : ` data-theme="${options.theme}"`;
  return `<!doctype html>
<html lang="en" id="host-root"${theme}>
<head><meta charset="utf-8"><title>A host page</title>${options.styles ? `<style>${stylesheet}</style>` : ''}
<style>.assistant-panel { --toolgate-bg: rgb(16, 17, 20); --toolgate-fg: rgb(250, 250, 250); }</style></head>
<body id="host-body">
<h1 id="host-title">Orders</h1>
<p id="host-text">The page's own text, with <a id="host-link" href="#top">a link</a>.</p>
<form><label>Name <input id="host-input" value="Ada"></label> <button id="host-button" type="button">Save</button>
<select id="host-select" aria-label="Size"><option>S</option></select> <textarea id="host-area" aria-label="Notes">Notes</textarea></form>
<div id="host-panel" style="background: #ffffff; padding: 8px"><p id="host-panel-text">A panel of the page with a white background of its own.</p></div>
<main id="kit">${kit}</main>
<section id="nested" data-theme="light" aria-label="A light panel"><div id="nested-kit">${kit.replace(/id="/g, 'id="n-').replace(/aria-labelledby="/g, 'aria-labelledby="n-')}</div></section>
<section class="assistant-panel" aria-label="An overridden panel"><ul class="toolgate-list" id="overridden"></ul></section>
</body></html>`;
}

const HOST_PROPERTIES = ['color', 'backgroundColor', 'colorScheme', 'borderTopColor', 'outlineColor', 'fontFamily', 'accentColor', 'caretColor'] as const;

async function hostStyles(page: Page): Promise<Record<string, Record<string, string>>> {
  return page.evaluate(
    ({ ids, properties }) =>
      Object.fromEntries(
        ids.map((id) => {
          const style = getComputedStyle(document.getElementById(id)!);
          return [id, Object.fromEntries(properties.map((p) => [p, style[p as keyof CSSStyleDeclaration] as string]))];
        }),
      ),
    { ids: HOST_IDS, properties: [...HOST_PROPERTIES] },
  );
}

/** color, background and color-scheme of the first element matching each selector. */
async function kitStyles(page: Page, selectors: readonly string[]): Promise<Record<string, { color: string; background: string; scheme: string }>> {
  return page.evaluate(
    (list) =>
      Object.fromEntries(
        list.map((selector) => {
          const element = document.querySelector(selector);
          if (!element) return [selector, { color: 'missing', background: 'missing', scheme: 'missing' }];
          const style = getComputedStyle(element);
          return [selector, { color: style.color, background: style.backgroundColor, scheme: style.colorScheme }];
        }),
      ),
    [...selectors],
  );
}

/** The used colour scheme of every kit element under `root` that does not match the expected one. */
async function kitElementsNotIn(page: Page, root: string, scheme: 'light' | 'dark'): Promise<string[]> {
  return page.evaluate(
    ({ root, scheme }) =>
      [...document.querySelectorAll(`${root} [class*="toolgate-"]`)]
        .filter((element) => {
          const value = getComputedStyle(element).colorScheme;
          // `light dark` follows the OS, `normal` (no scheme declared) is light: compare what they resolve to.
          const used = value === 'light dark' ? (matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light') : value === 'normal' ? 'light' : value;
          return used !== scheme;
        })
        .map((element) => `${element.className} (${getComputedStyle(element).colorScheme})`),
    { root, scheme },
  );
}

async function audit(page: Page, selector: string): Promise<string[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.addScriptTag({ path: axeSource });
  return page.evaluate(async (context) => {
    const axe = (window as unknown as { axe: { run: (context: string, options: unknown) => Promise<{ violations: { id: string; nodes: { target: unknown }[] }[] }> } }).axe;
    const result = await axe.run(context, { runOnly: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] });
    return result.violations.map((v) => `${v.id}: ${v.nodes.map((n) => JSON.stringify(n.target)).join(', ')}`);
  }, selector);
}

const LIGHT = { bg: 'rgb(255, 255, 255)', fg: 'rgb(28, 29, 33)' };
const DARK = { bg: 'rgb(24, 25, 29)', fg: 'rgb(236, 237, 241)' };

let browser: Browser;
let kit: string;
beforeAll(async () => {
  kit = kitMarkup();
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
});

async function open(os: 'light' | 'dark', options: { styles: boolean; theme?: 'light' | 'dark' | 'system' }): Promise<Page> {
  const page = await browser.newPage();
  await page.emulateMedia({ colorScheme: os });
  await page.setContent(pageHtml(kit, options));
  return page;
}

describe('the stylesheet touches only the kit', () => {
  // With no data-theme the kit takes the page's colour scheme, which is light when the page
  // declares none, whatever the OS says; data-theme="system" follows the OS (docs/theming.md).
  const cases = [
    { os: 'light', theme: undefined, kit: LIGHT },
    { os: 'dark', theme: undefined, kit: LIGHT },
    { os: 'light', theme: 'dark', kit: DARK },
    { os: 'dark', theme: 'light', kit: LIGHT },
    { os: 'dark', theme: 'system', kit: DARK },
    { os: 'light', theme: 'system', kit: LIGHT },
  ] as const;

  for (const { os, theme, kit: expected } of cases) {
    const named = `with the OS in ${os} mode${theme ? ` and data-theme="${theme}" on the page` : ''}`;

    it(`leaves the host page's colours as they are without it, ${named}`, async () => {
      const bare = await open(os, { styles: false, ...(theme && { theme }) });
      const styled = await open(os, { styles: true, ...(theme && { theme }) });
      expect(await hostStyles(styled)).toEqual(await hostStyles(bare));
      // The case the rule comes from: the page's text stays dark on its own white panel.
      expect((await hostStyles(styled))['host-panel-text']!['color']).toBe('rgb(0, 0, 0)');
      await bare.close();
      await styled.close();
    });

    it(`themes the kit's own elements ${theme ? `from data-theme="${theme}"` : 'from the page (which declares no color-scheme)'}, ${named}`, async () => {
      const page = await open(os, { styles: true, ...(theme && { theme }) });
      const styles = await kitStyles(page, ['#kit .toolgate-list', '#kit .toolgate-timeline', '#kit > .toolgate-progress']);
      for (const [selector, style] of Object.entries(styles)) {
        expect({ selector, color: style.color, background: style.background }).toEqual({ selector, color: expected.fg, background: expected.bg });
      }
      expect(await kitElementsNotIn(page, '#kit', expected === DARK ? 'dark' : 'light')).toEqual([]);
      expect(await audit(page, '#kit')).toEqual([]);
      await page.close();
    });
  }

  it('lets the nearest data-theme win: a light panel in a dark page shows the kit light', async () => {
    const page = await open('dark', { styles: true, theme: 'dark' });
    const styles = await kitStyles(page, ['#nested-kit .toolgate-list', '#kit .toolgate-list']);
    expect(styles['#nested-kit .toolgate-list']).toMatchObject({ color: LIGHT.fg, background: LIGHT.bg, scheme: 'light' });
    expect(styles['#kit .toolgate-list']).toMatchObject({ color: DARK.fg, background: DARK.bg, scheme: 'dark' });
    expect(await kitElementsNotIn(page, '#nested-kit', 'light')).toEqual([]);
    expect(await audit(page, '#nested')).toEqual([]);
    await page.close();
  });

  it('takes a --toolgate-* override set on an ancestor of the kit, in both OS modes', async () => {
    for (const os of ['light', 'dark'] as const) {
      const page = await open(os, { styles: true });
      expect((await kitStyles(page, ['#overridden']))['#overridden']).toMatchObject({ color: 'rgb(250, 250, 250)', background: 'rgb(16, 17, 20)' });
      await page.close();
    }
  });
});
