// @vitest-environment node
// The stylesheet touches only the kit: read as text, every style rule of toolgate/styles.css
// selects the kit's own elements, and the theme reaches every root through the same list. The
// browser side (a host page's colours in dark OS mode) is test/e2e/host-page.test.ts.
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

  it('gives every theme rule the same list of the kit’s roots', () => {
    const themeRules = rules.filter((rule) => /color-scheme\s*:/.test(rule.body));
    const lists = themeRules.map((rule) => {
      const roots = /:is\(((?:\.toolgate-[\w-]+,?\s*)+)\)\s*$/.exec(rule.selectors[0]!);
      return roots ? roots[1]!.split(',').map((s) => s.trim()).sort() : [`no root list in: ${rule.selectors[0]}`];
    });
    expect(themeRules).toHaveLength(5);
    for (const list of lists) expect(list).toEqual(lists[0]);
    expect(lists[0]).toEqual(expect.arrayContaining(['.toolgate-list', '.toolgate-card', '.toolgate-confirm', '.toolgate-theme']));
  });

  it('registers every --toolgate-* property it reads without a fallback, so none needs a declaration on the page', () => {
    const registered = new Set([...css.matchAll(/@property\s+(--toolgate-[\w-]+)/g)].map((m) => m[1]));
    const read = new Set([...css.matchAll(/var\((--toolgate-[\w-]+)\)/g)].map((m) => m[1]));
    expect([...read].filter((name) => !registered.has(name))).toEqual([]);
  });
});
