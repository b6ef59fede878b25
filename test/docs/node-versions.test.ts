// @vitest-environment node
// The README's "Node versions" says which Node each part needs and which development dependencies
// warn (EBADENGINE) on the oldest Node it supports. These tests hold those words to the `engines`
// that package.json and package-lock.json declare, so a dependency bump that changes what Node is
// needed, or a README edit, cannot leave the two disagreeing.
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const readme = readFileSync(join(root, 'README.md'), 'utf8');
const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { engines: { node: string } };
const lock = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8')) as {
  packages: Record<string, { version?: string; engines?: { node?: string } | string[]; optional?: boolean }>;
};

/* ------------------------------------------------------------ node's engines ranges */

type Version = readonly [number, number, number];

const parseVersion = (text: string): Version => {
  const match = /^v?(\d+)(?:\.(\d+))?(?:\.(\d+))?$/.exec(text);
  if (!match) throw new Error(`not a Node version: ${text}`);
  return [Number(match[1]), Number(match[2] ?? 0), Number(match[3] ?? 0)];
};

const compare = (a: Version, b: Version): number => a[0] - b[0] || a[1] - b[1] || a[2] - b[2];

/**
 * Whether `version` is in an npm `engines.node` range, for the forms the lock holds (`>=20`,
 * `^20.19.0 || >=22.12.0`, `18 || 20 || >=22`, `10.* || >= 12.*`, `>=16 || 14 >=14.17`, `*`). An
 * unknown form throws, so a new one is read correctly or not at all.
 */
function admits(range: string, version: Version): boolean {
  return range.split('||').some((set) => {
    const comparators = set.trim().replace(/([<>]=?|=|\^|~)\s+/g, '$1').split(/\s+/).filter(Boolean);
    return comparators.every((comparator) => {
      if (comparator === '*' || comparator === 'x') return true;
      const match = /^(>=|<=|>|<|=|\^|~)?v?(\d+)(?:\.(\d+|\*|x))?(?:\.(\d+|\*|x))?$/.exec(comparator);
      if (!match) throw new Error(`an engines range this test cannot read: ${range}`);
      const [, op = '', major, minorText, patchText] = match;
      const wild = (part: string | undefined) => part === undefined || part === '*' || part === 'x';
      const bound: Version = [Number(major), wild(minorText) ? 0 : Number(minorText), wild(patchText) ? 0 : Number(patchText)];
      const c = compare(version, bound);
      switch (op) {
        case '>=':
          return c >= 0;
        case '>':
          return c > 0;
        case '<=':
          return c <= 0;
        case '<':
          return c < 0;
        case '^':
          return c >= 0 && version[0] === bound[0];
        case '~':
          return c >= 0 && version[0] === bound[0] && (wild(minorText) || version[1] === bound[1]);
        default:
          // A bare or partial version: every version it names (`20`, `10.*`, `20.19`).
          return version[0] === bound[0] && (wild(minorText) || version[1] === bound[1]) && (wild(patchText) || version[2] === bound[2]);
      }
    });
  });
}

/* ------------------------------------------------------------ what the README says */

const section = (() => {
  const start = readme.indexOf('### Node versions\n');
  expect(start, 'README has a "### Node versions" section').toBeGreaterThanOrEqual(0);
  const end = readme.indexOf('\n## ', start);
  return readme.slice(start, end < 0 ? undefined : end);
})();

/** The table's rows: what -> the Node it needs, as written. */
const rows = new Map(
  [...section.matchAll(/^\| (.+?) \| (.+?) \|$/gm)].filter(([, what]) => what !== 'what' && !/^-+$/.test(what!)).map(([, what, node]) => [what!, node!]),
);

const row = (startsWith: string): string => {
  const found = [...rows].find(([what]) => what.startsWith(startsWith));
  if (!found) throw new Error(`README's Node versions table has no row for ${startsWith}`);
  return found[1];
};

/** "20.19 or newer" -> 20.19.0; several lines ("… on 20, 22.13 or newer on 22, or 24 or newer") -> each lower bound. */
const lowerBounds = (text: string): Version[] => [...text.matchAll(/(\d+(?:\.\d+)?) or newer/g)].map(([, v]) => parseVersion(v!));

/** The development dependencies the README says warn, and the Node they declare. */
const warned = (() => {
  const match = /which declare `node >= (\d+)`: ([^.]+)\./.exec(section.replace(/\s+/g, ' '));
  if (!match) throw new Error('README does not list the development dependencies that want a newer Node ("which declare `node >= N`: …")');
  return { node: parseVersion(match[1]!), names: [...match[2]!.matchAll(/`([^`]+)`/g)].map(([, name]) => name!) };
})();

/** Every package an install brings, with its declared node range (the lock records `engines`). */
const installed = Object.entries(lock.packages)
  .filter(([path]) => path !== '')
  .flatMap(([path, entry]) => {
    const node = Array.isArray(entry.engines) ? undefined : entry.engines?.node;
    return node === undefined ? [] : [{ name: path.slice(path.lastIndexOf('node_modules/') + 'node_modules/'.length), version: entry.version ?? '?', node, optional: entry.optional === true }];
  });

const packageMinimum = lowerBounds(row('the package'))[0]!;

describe("the README's Node versions", () => {
  it('reads the engines ranges the lock holds as npm does', () => {
    expect(admits('>=22', parseVersion('20.19'))).toBe(false);
    expect(admits('^20.19.0 || ^22.13.0 || >=24.0.0', parseVersion('22.12'))).toBe(false);
    expect(admits('^20.19.0 || ^22.13.0 || >=24.0.0', parseVersion('22.13'))).toBe(true);
    expect(admits('>=16 || 14 >=14.17', parseVersion('14.16'))).toBe(false);
    expect(admits('10.* || >= 12.*', parseVersion('11.0'))).toBe(false);
    expect(admits('20 || >=22', parseVersion('21.7'))).toBe(false);
    expect(() => admits('>=20 <22 - 23', parseVersion('20.19'))).toThrow(/cannot read/);
  });

  it("states the package's own engines: the Node package.json declares", () => {
    expect(manifest.engines.node).toBe(`>=${packageMinimum.join('.').replace(/\.0$/, '')}`);
    expect(readme).toContain(`Node ${packageMinimum.join('.').replace(/\.0$/, '')} or newer`);
  });

  it('lists exactly the packages an install warns about on the oldest Node it states, each by the Node it wants', () => {
    const warning = installed.filter((p) => !p.optional && !admits(p.node, packageMinimum));
    expect(new Set(warned.names)).toEqual(new Set(warning.map((p) => p.name)));
    for (const p of warning) expect(admits(p.node, warned.node), `${p.name}@${p.version} declares node ${p.node}`).toBe(true);
  });

  it('says AI SDK 7 needs the Node that the installed ai and @ai-sdk/react declare', () => {
    const [needed] = lowerBounds(row('`toolgate/ai-sdk` with AI SDK 7'));
    for (const name of ['ai', '@ai-sdk/react']) {
      const p = installed.find((q) => q.name === name);
      expect(p, `${name} is installed with its engines`).toBeDefined();
      expect(admits(p!.node, needed!), `${name}@${p!.version} declares node ${p!.node}`).toBe(true);
      expect(admits(p!.node, [needed![0] - 1, 99, 0]), `${name}@${p!.version} declares node ${p!.node}`).toBe(false);
    }
  });

  it('gives a Node for working on toolgate that every installed package admits, but for the listed warnings', () => {
    const lines = lowerBounds(row('working on toolgate'));
    expect(lines.length).toBeGreaterThan(0);
    expect(compare(lines[0]!, packageMinimum)).toBe(0);
    const excused = new Set(warned.names);
    for (const version of lines) {
      const refusing = installed.filter((p) => !p.optional && !admits(p.node, version) && !(excused.has(p.name) && admits(p.node, warned.node)));
      expect(refusing.map((p) => `${p.name}@${p.version} (node ${p.node})`), `on Node ${version.join('.')}`).toEqual([]);
    }
  });
});
