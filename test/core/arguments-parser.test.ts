import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { createArgumentsParser, parsePartialArguments } from 'toolgate/json';
import { isConsistentPreview, splitAt, isDeepFrozen } from './preview-consistency';

const SEED = 20261130;

/** Feed `text` in the given fragments; return every preview seen along the way, and the parser. */
function stream(fragments: readonly string[]) {
  const parser = createArgumentsParser();
  const previews = fragments.map((f) => parser.push(f));
  return { parser, previews };
}

const jsonText = fc
  .tuple(fc.jsonValue({ maxDepth: 4 }), fc.constantFrom(undefined, 0, 1, 2, '\t'))
  .map(([value, indent]) => ({ value, text: JSON.stringify(value, null, indent) }));

const withCuts = jsonText.chain(({ value, text }) =>
  fc
    .uniqueArray(fc.integer({ min: 1, max: Math.max(1, text.length - 1) }), { maxLength: 24 })
    .map((cuts) => ({ value, text, fragments: splitAt(text, cuts) })),
);

describe('createArgumentsParser', () => {
  it('agrees with JSON.parse on complete text, however the text is cut', () => {
    fc.assert(
      fc.property(withCuts, ({ text, fragments }) => {
        const { parser } = stream(fragments);
        expect(parser.error).toBeUndefined();
        expect(parser.end()).toEqual(JSON.parse(text));
        expect(parser.text).toBe(text);
      }),
      { seed: SEED, numRuns: 2000 },
    );
  });

  it('never shows a preview that the final value contradicts', () => {
    fc.assert(
      fc.property(withCuts, ({ text, fragments }) => {
        const final: unknown = JSON.parse(text);
        const { previews } = stream(fragments);
        for (const preview of previews) expect(isConsistentPreview(preview, final)).toBe(true);
      }),
      { seed: SEED, numRuns: 2000 },
    );
  });

  it('shows each preview as a growth of the one before it', () => {
    fc.assert(
      fc.property(withCuts, ({ fragments }) => {
        const { previews } = stream(fragments);
        for (let i = 1; i < previews.length; i++) {
          if (previews[i - 1] !== undefined) expect(isConsistentPreview(previews[i - 1], previews[i])).toBe(true);
        }
      }),
      { seed: SEED, numRuns: 1000 },
    );
  });

  it('hands out deeply frozen previews', () => {
    fc.assert(
      fc.property(withCuts, ({ fragments }) => {
        for (const preview of stream(fragments).previews) expect(isDeepFrozen(preview)).toBe(true);
      }),
      { seed: SEED, numRuns: 500 },
    );
  });

  it('keeps the identity of subtrees that did not change between snapshots', () => {
    const parser = createArgumentsParser();
    const first = parser.push('{"done": {"a": [1, 2]}, "list": [{"x": 1}, {"y": "a') as Record<string, unknown>;
    const second = parser.push('bc') as Record<string, unknown>;
    expect(second).not.toBe(first);
    expect(second.done).toBe(first.done);
    expect((second.list as unknown[])[0]).toBe((first.list as unknown[])[0]);
    expect(parser.value).toBe(second); // no new text, same snapshot
  });

  it('returns the same snapshot until new text arrives', () => {
    const parser = createArgumentsParser();
    parser.append('{"a": [1');
    expect(parser.value).toBe(parser.value);
    parser.append('');
    expect(parser.value).toEqual({ a: [] });
  });

  describe('what a preview shows', () => {
    it('shows a key only once it is complete and its value has begun', () => {
      expect(parsePartialArguments('{"ke').value).toEqual({});
      expect(parsePartialArguments('{"key"').value).toEqual({});
      expect(parsePartialArguments('{"key": ').value).toEqual({});
      expect(parsePartialArguments('{"key": "').value).toEqual({ key: '' });
      expect(parsePartialArguments('{"key": [').value).toEqual({ key: [] });
    });

    it('shows a number only once it is complete, since a prefix of a number is another number', () => {
      expect(parsePartialArguments('{"n": 12').value).toEqual({});
      expect(parsePartialArguments('{"n": 12,').value).toEqual({ n: 12 });
      expect(parsePartialArguments('[1, 2.5e').value).toEqual([1]);
      expect(parsePartialArguments('12').value).toBeUndefined();
    });

    it('shows a literal as soon as its first letter decides it', () => {
      expect(parsePartialArguments('[tr').value).toEqual([true]);
      expect(parsePartialArguments('[f').value).toEqual([false]);
      expect(parsePartialArguments('{"a": nu').value).toEqual({ a: null });
    });

    it('never shows raw escape text, at any cut', () => {
      const text = '{"s": "tab\\there \\"quoted\\" \\\\ back \\u00e9 \\/"}';
      const final = JSON.parse(text) as { s: string };
      for (let cut = 1; cut < text.length; cut++) {
        const { value } = parsePartialArguments(text.slice(0, cut));
        const s = (value as { s?: string } | undefined)?.s;
        if (s !== undefined) expect(final.s.startsWith(s)).toBe(true);
      }
    });

    it('never shows half of a surrogate pair, escaped or raw', () => {
      for (const text of ['{"e": "a\\ud83d\\ude00b"}', '{"e": "a😀b"}']) {
        for (let cut = 1; cut < text.length; cut++) {
          const s = (parsePartialArguments(text.slice(0, cut)).value as { e?: string } | undefined)?.e;
          if (s !== undefined) expect(s).not.toMatch(/[\ud800-\udbff]$/);
        }
      }
    });

    // Each string of a preview is a prefix of the final one, ending on a high surrogate only when
    // the final string is that very string.
    const expectNoHalfPair = (preview: unknown, final: unknown): void => {
      if (typeof preview === 'string') {
        expect(typeof final === 'string' && final.startsWith(preview)).toBe(true);
        if (/[\ud800-\udbff]$/.test(preview)) expect(preview).toBe(final);
      } else if (preview !== null && typeof preview === 'object') {
        for (const [key, value] of Object.entries(preview)) expectNoHalfPair(value, (final as Record<string, unknown>)[key]);
      }
    };

    it('holds a high surrogate that ends a fragment until the next one, whatever follows it', () => {
      // Raw pairs split across fragments, a raw high surrogate before an escaped low one, and lone
      // raw surrogates at the end of a string: every split point, previews then the final value.
      const texts = ['{"e": "a😀b😀"}', '["\ud83d\\ude00", "x\ud800", "\ud800"]', '{"k😀": "\ud83d"}'];
      for (const text of texts) {
        for (let cut = 1; cut < text.length; cut++) {
          const { parser, previews } = stream([text.slice(0, cut), text.slice(cut)]);
          const final: unknown = JSON.parse(text);
          for (const preview of previews) expectNoHalfPair(preview, final);
          expect(parser.value).toEqual(final);
        }
      }
    });

    it('keeps a lone surrogate escape, as JSON.parse does', () => {
      const text = '["\\ud800x", "\\udc00"]';
      const parser = createArgumentsParser();
      parser.push(text);
      expect(parser.value).toEqual(JSON.parse(text));
    });

    it('handles a fragment that ends on a lone backslash', () => {
      const { parser, previews } = stream(['{"path": "C:\\', '\\dir\\', 'nname"}']);
      expect(previews[0]).toEqual({ path: 'C:' });
      expect(previews[1]).toEqual({ path: 'C:\\dir' });
      expect(parser.value).toEqual({ path: 'C:\\dir\nname' });
    });

    it('tells the path of the field being written', () => {
      const parser = createArgumentsParser();
      parser.push('{"edits": [{"old": "a"}, {"new": "b');
      expect(parser.path).toEqual(['edits', 1, 'new']);
      parser.push('"}]}');
      expect(parser.path).toBeUndefined();
    });
  });

  describe('text that can never become JSON', () => {
    const cases: [string, string, unknown][] = [
      ['{"a":1}}', "unexpected '}' at 7 after the end of the JSON value", { a: 1 }],
      ['[1,,2]', "unexpected ',' at 3 where a value was expected", [1]],
      ["{'a': 1}", `unexpected "'" at 1: JSON strings use double quotes`, {}],
      ['{"a": "x\ny"}', 'raw control character U+000A inside a string at 8', { a: 'x' }],
      ['{"a" 1}', "where ':' was expected", {}],
      ['[1 2]', "where ',' or ']' was expected", [1]],
      ['[01]', "'01' at 1 is not a valid JSON number", []],
      ['[tru e]', "unexpected ' ' at 4 in 'true'", [true]],
      ['["\\x"]', "invalid escape '\\x'", ['']],
      ['["\\u12g4"]', 'invalid unicode escape', ['']],
      ['{"a": 1,}', "unexpected '}' at 8 after ','", { a: 1 }],
      ['[NaN]', "unexpected 'N'", []],
    ];

    it.each(cases)('sets an error with a reason for %j and keeps the last good preview', (text, reason, preview) => {
      const parser = createArgumentsParser();
      for (const ch of text) parser.push(ch);
      expect(parser.error?.reason).toContain(reason);
      expect(parser.value).toEqual(preview);
      expect(parser.text).toBe(text);
    });

    it('says why when the text ends before the value is complete', () => {
      const parser = createArgumentsParser();
      parser.push('{"a": [1, 2');
      parser.end();
      expect(parser.error?.reason).toMatch(/ended at 11 before the JSON value was complete/);
      expect(createArgumentsParser().end()).toBeUndefined();
    });

    it('points at the single quote of a single-quoted string', () => {
      const parser = createArgumentsParser();
      parser.push("['a']");
      expect(parser.error).toEqual({ reason: `unexpected "'" at 1: JSON strings use double quotes`, offset: 1 });
    });

    it('shows the valid part of a string cut by an error, whether or not it was read before', () => {
      const text = ['{"s": "line\\n \\"q\\" ', '\\x', ' more'];
      const unread = createArgumentsParser();
      const read = createArgumentsParser();
      for (const delta of text) {
        unread.append(delta);
        read.push(delta);
      }
      expect(read.value).toEqual({ s: 'line\n "q" ' });
      expect(unread.value).toEqual(read.value);
      expect(unread.error).toEqual(read.error);
      expect(unread.error?.reason).toMatch(/invalid escape '\\x'/);
    });

    it('keeps the whole text and a long string exact across thousands of fragments, read at any point', () => {
      // Pieces are folded together in chunks as they pile up: reads before, at and after a fold.
      const body = Array.from({ length: 5000 }, (_, i) => `w${i % 10}`).join('');
      const text = JSON.stringify({ body, n: 1 });
      const parser = createArgumentsParser();
      let sent = '';
      for (let i = 0, k = 0; i < text.length; i += 2, k++) {
        const piece = text.slice(i, i + 2);
        parser.push(piece);
        sent += piece;
        if (k % 997 === 0 || k === 1023 || k === 1024 || k === 2048) {
          expect(parser.text).toBe(sent);
          const shown = (parser.value as { body?: string } | undefined)?.body;
          if (shown !== undefined) expect(body.startsWith(shown)).toBe(true);
        }
      }
      expect(parser.text).toBe(text);
      expect(parser.value).toEqual({ body, n: 1 });
    });

    it('ignores text after an error but keeps it in `text`', () => {
      const parser = createArgumentsParser();
      parser.push('[1,,');
      const before = parser.value;
      parser.push('2, 3]');
      expect(parser.value).toBe(before);
      expect(parser.text).toBe('[1,,2, 3]');
    });
  });

  describe('keys that try to reach a prototype', () => {
    it('keeps __proto__ as an ordinary own key, in previews and in the final value', () => {
      const text = '{"__proto__": {"polluted": true}, "constructor": {"prototype": {"polluted": true}}}';
      for (let cut = 1; cut <= text.length; cut++) {
        const value = parsePartialArguments(text.slice(0, cut)).value as Record<string, unknown> | undefined;
        if (value === undefined) continue;
        expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
      }
      const value = parsePartialArguments(text).value as Record<string, unknown>;
      expect(Object.keys(value)).toEqual(['__proto__', 'constructor']);
      expect(Object.getOwnPropertyDescriptor(value, '__proto__')?.value).toEqual({ polluted: true });
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
      expect(value).toEqual(JSON.parse(text));
    });
  });
});
