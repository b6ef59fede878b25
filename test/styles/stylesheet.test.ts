// @vitest-environment node
// The stylesheet touches only the kit: read as text, every style rule of toolgate/styles.css
// selects the kit's own elements, the theme and the palette reach every root through the same
// list, and the colours are written so that production pipelines keep them. The browser side: a
// host page's colours in each OS mode, test/e2e/host-page.test.ts; the stylesheet after Vite,
// Next.js, esbuild and Storybook builds, test/e2e/built-styles.test.ts.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const css = readFileSync(new URL('../../src/styles.css', import.meta.url), 'utf8').replace(/\/\*[\s\S]*?\*\//g, '');

interface StyleRule {
  readonly selectors: readonly string[];
  readonly body: string;
}

/** The style rules, inside @media and @supports too; @keyframes and @property hold no selectors. */
function styleRules(text: string): StyleRule[] {
  const rules: StyleRule[] = [];
  let i = 0;
  while (i < text.length) {
    const open = text.indexOf('{', i);
    if (open === -1) break;
    const prelude = text.slice(i, open).trim();
    let depth = 1;
    let j = open + 1;
    for (; j < text.length && depth > 0; j += 1) {
      if (text[j] === '{') depth += 1;
      else if (text[j] === '}') depth -= 1;
    }
    const body = text.slice(open + 1, j - 1);
    if (/^@(media|supports|layer|container)\b/.test(prelude)) rules.push(...styleRules(body));
    else if (!prelude.startsWith('@')) rules.push({ selectors: splitSelectors(prelude), body });
    i = j;
  }
  return rules;
}

/** A selector list split at its top-level commas (not those inside :is() or :not()). */
function splitSelectors(list: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let start = 0;
  for (let k = 0; k < list.length; k += 1) {
    if (list[k] === '(') depth += 1;
    else if (list[k] === ')') depth -= 1;
    else if (list[k] === ',' && depth === 0) {
      parts.push(list.slice(start, k).trim());
      start = k + 1;
    }
  }
  parts.push(list.slice(start).trim());
  return parts.filter(Boolean);
}

const rules = styleRules(css);

describe('toolgate/styles.css', () => {
  it('selects only the kit’s own elements: every selector names a toolgate-* class', () => {
    const strays = rules.flatMap((rule) => rule.selectors).filter((selector) => !/\.toolgate-[\w-]/.test(selector));
    expect(rules.length).toBeGreaterThan(50);
    expect(strays).toEqual([]);
  });

  it('sets nothing on the page’s root or body (no :root, html or body selector)', () => {
    const page = rules.flatMap((rule) => rule.selectors).filter((selector) => /:root|(^|[\s>+~(,])(html|body)\b/.test(selector));
    expect(page).toEqual([]);
  });

  it('gives the palette and every theme rule the same list of the kit’s roots', () => {
    const rootList = (selector: string) => {
      const roots = /:(?:is|where)\(((?:\.toolgate-[\w-]+,?\s*)+)\)\s*$/.exec(selector);
      return roots ? roots[1]!.split(',').map((s) => s.trim()).sort() : [`no root list in: ${selector}`];
    };
    const themeRules = rules.filter((rule) => /color-scheme\s*:/.test(rule.body));
    const palette = rules.filter((rule) => /--_toolgate-[\w-]+\s*:/.test(rule.body));
    // light, dark and system (the OS's), each on its own and inside another data-theme.
    expect(themeRules).toHaveLength(6);
    expect(palette).toHaveLength(1);
    const lists = [...themeRules, ...palette].map((rule) => rootList(rule.selectors[0]!));
    for (const list of lists) expect(list).toEqual(lists[0]);
    expect(lists[0]).toEqual(expect.arrayContaining(['.toolgate-list', '.toolgate-card', '.toolgate-confirm', '.toolgate-confirm-overlay', '.toolgate-theme']));
  });

  it('sets no color-scheme on the kit without a data-theme, so the kit follows the page', () => {
    const unthemed = rules.filter((rule) => /color-scheme\s*:/.test(rule.body) && rule.selectors.some((selector) => !selector.includes('[data-theme')));
    expect(unthemed).toEqual([]);
  });

  // Production pipelines (Lightning CSS in Vite and Next.js) rewrite light-dark() for older
  // browsers into fallbacks that are invalid in @property and need the pipeline's own color-scheme
  // rules elsewhere; they leave an @supports (color: light-dark(…)) block as written.
  it('writes light-dark() only inside @supports (color: light-dark(…)), and registers no colour with @property', () => {
    const outside = css.replace(/@supports\s*\(color:\s*light-dark\([^)]*\)\)\s*\{(?:[^{}]|\{[^{}]*\})*\}/g, '');
    expect(outside).not.toMatch(/light-dark\(/);
    expect([...css.matchAll(/@property\s+(--toolgate-[\w-]+)/g)].map((m) => m[1]).sort()).toEqual(['--toolgate-font', '--toolgate-gap', '--toolgate-mono', '--toolgate-radius']);
  });

  it('reads every colour through its internal property, which takes the app’s --toolgate-* value first', () => {
    const palette = rules.find((rule) => /--_toolgate-[\w-]+\s*:/.test(rule.body))!.body;
    const internal = new Map([...palette.matchAll(/(--_toolgate-[\w-]+)\s*:\s*([^;]+);/g)].map((m) => [m[1]!, m[2]!.trim()]));
    const colours = [...internal.keys()].filter((name) => !name.endsWith('-default'));
    expect(colours.length).toBeGreaterThan(30);
    for (const name of colours) {
      const pub = name.replace('--_toolgate-', '--toolgate-');
      expect(internal.get(name)).toBe(`var(${pub}, var(${name}-default))`);
      expect(internal.get(`${name}-default`)).toMatch(/^light-dark\(/);
    }
    // Outside the palette, a rule reads a colour only through the internal name: a read of the
    // public name would be empty unless the app set it.
    const registered = new Set([...css.matchAll(/@property\s+(--toolgate-[\w-]+)/g)].map((m) => m[1]));
    const reads = rules.filter((rule) => !/--_?toolgate-[\w-]+\s*:/.test(rule.body)).flatMap((rule) => [...rule.body.matchAll(/var\((--_?toolgate-[\w-]+)\)/g)].map((m) => m[1]!));
    expect(reads.filter((name) => !registered.has(name) && !internal.has(name))).toEqual([]);
  });
});
