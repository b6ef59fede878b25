/**
 * The test cases of the two partial-JSON parsers agent UIs use today (partial-json and the
 * AI SDK's repair), run against toolgate's parser. Where toolgate differs, the difference is
 * one of the deliberate choices below; docs/parser.md explains each.
 */
import { describe, expect, it } from 'vitest';
import { isDeepStrictEqual } from 'node:util';
import { createArgumentsParser } from 'toolgate/json';
import { Allow, parse as partialJsonParse } from 'partial-json';
import cases from '../fixtures/peer-cases/partial-json-peer-cases.json';
import { isConsistentPreview } from './preview-consistency';

interface PeerCase {
  source: string;
  input: string | null;
  expected: unknown;
  expectedSpecial?: string;
  allow?: string;
  semantics: 'ai' | 'partial-json';
}

type Verdict =
  | 'agrees'
  /** A number is shown only once complete: `2.5e` may yet become `2.5e3` (2500), not 2.5. */
  | 'waits for the end of a number'
  /** Text that may still become JSON (`""`, `"-"`) shows nothing and is not an error. */
  | 'nothing to show yet is not an error'
  /** partial-json's `allow` flags forbid some partial types; toolgate always previews them. */
  | 'always previews open strings, containers and decided literals'
  /** partial-json can accept Infinity and NaN, which JSON has not: toolgate refuses them. */
  | 'refuses tokens JSON does not have'
  /** The parser takes strings; a non-string fragment is refused earlier, by event validation. */
  | 'takes text only';

/** Pieces a completion of cut JSON text may need: a quote, a value, a colon, a comma, closers, the rest of a literal. */
const COMPLETION_PIECES = ['"', '0', ':', ',', ']', '}', 'ull', 'rue', 'alse'];

/**
 * The value of the shortest completion of `text` made of {@link COMPLETION_PIECES} (up to four),
 * found by trying them with JSON.parse: a final value the text can still become, found without
 * either parser.
 */
function completedValue(text: string): { value: unknown } | undefined {
  let suffixes = [''];
  for (let pieces = 0; pieces <= 4; pieces += 1) {
    for (const suffix of suffixes) {
      try {
        return { value: JSON.parse(text + suffix) as unknown };
      } catch {
        // not yet
      }
    }
    suffixes = suffixes.flatMap((suffix) => COMPLETION_PIECES.map((piece) => suffix + piece));
  }
  return undefined;
}

/**
 * For a case whose `allow` flags forbid partial types: toolgate's preview must still be right, not
 * just different. It is consistent with a final value the text can become (a prefix, as number
 * previews are checked), it is what partial-json shows with every partial type allowed, and it
 * shows at least what the limited peer shows.
 */
function previewsWhatItMay(input: string, preview: unknown, expected: unknown): boolean {
  const final = completedValue(input);
  if (final === undefined || !isConsistentPreview(preview, final.value)) return false;
  let unlimited: { value: unknown } | undefined;
  try {
    unlimited = { value: partialJsonParse(input, Allow.ALL) as unknown };
  } catch {
    unlimited = undefined;
  }
  if (unlimited === undefined || !isDeepStrictEqual(preview, unlimited.value)) return false;
  return expected === 'throws' || isConsistentPreview(expected, preview);
}

function verdict(c: PeerCase): Verdict | 'unexplained' {
  if (typeof c.input !== 'string') return 'takes text only';
  const parser = createArgumentsParser();
  parser.append(c.input);
  const preview = parser.value;
  const expected = c.expectedSpecial ?? c.expected;
  let whole: { value: unknown } | undefined;
  try {
    whole = { value: JSON.parse(c.input) as unknown };
  } catch {
    whole = undefined;
  }
  if (whole !== undefined) {
    // Complete text: toolgate must agree with JSON.parse, whatever the peer says.
    return isDeepStrictEqual(parser.end(), whole.value) && (expected === 'throws' || isDeepStrictEqual(whole.value, expected))
      ? 'agrees'
      : 'unexplained';
  }
  if (expected === 'throws' ? parser.error !== undefined : isDeepStrictEqual(preview, expected)) return 'agrees';
  if (c.allow !== undefined && /INFINITY|NAN/.test(c.allow) && parser.error !== undefined) return 'refuses tokens JSON does not have';
  if (parser.error !== undefined) return 'unexplained';
  if (expected === 'throws' && preview === undefined) return 'nothing to show yet is not an error';
  if (c.semantics === 'partial-json' && c.allow !== undefined && c.allow !== 'ALL' && previewsWhatItMay(c.input, preview, expected)) {
    return 'always previews open strings, containers and decided literals';
  }
  if (/[-+.\deE]$/.test(c.input.trimEnd()) && isConsistentPreview(preview, expected)) return 'waits for the end of a number';
  return 'unexplained';
}

describe("the peers' test cases", () => {
  const all = cases as PeerCase[];

  it.each(all.map((c, i) => [i, c.source.split(' — ').pop() ?? c.source, c] as const))(
    'case %i (%s) agrees or differs by a documented choice',
    (_i, _name, c) => {
      expect(verdict(c)).not.toBe('unexplained');
    },
  );

  it('agrees with both peers on most cases and explains the rest', () => {
    const counts = new Map<string, number>();
    for (const c of all) counts.set(verdict(c), (counts.get(verdict(c)) ?? 0) + 1);
    expect(counts.get('agrees')).toBeGreaterThanOrEqual(65);
    expect(counts.get('unexplained')).toBeUndefined();
  });

  it('agrees with JSON.parse on every complete text, where partial-json 0.1.7 misses one', () => {
    const partialJsonMisses: string[] = [];
    for (const c of all) {
      if (typeof c.input !== 'string') continue;
      let value: unknown;
      try {
        value = JSON.parse(c.input);
      } catch {
        continue;
      }
      const parser = createArgumentsParser();
      parser.append(c.input);
      expect(parser.end()).toEqual(value);
      if (!isDeepStrictEqual(partialJsonParse(c.input), value)) partialJsonMisses.push(c.source);
    }
    // partial-json 0.1.7 stops at an empty array written with spaces (its issue #12, fixed later).
    expect(partialJsonMisses).toEqual([expect.stringContaining('empty array with spaces should not stop parsing')]);
  });
});
