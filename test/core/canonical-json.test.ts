import { describe, expect, it } from 'vitest';
import { type JsonValue } from 'toolgate/core';
import { CanonicalJsonError, canonicalJson } from 'toolgate/json';

/** The IEEE 754 double with these 16 hex digits (RFC 8785 Appendix B writes numbers this way). */
function fromIeeeHex(hex: string): number {
  const view = new DataView(new ArrayBuffer(8));
  view.setBigUint64(0, BigInt(`0x${hex}`));
  return view.getFloat64(0);
}

describe('canonical JSON (RFC 8785)', () => {
  it('serialises the example of RFC 8785 section 3.2.2 exactly', () => {
    // The input text of the RFC, parsed as JSON; the output is the RFC's, byte for byte.
    const input = JSON.parse(String.raw`{
      "numbers": [333333333.33333329, 1E30, 4.50, 2e-3, 0.000000000000000000000000001],
      "string": "\u20ac$\u000F\u000aA'\u0042\u0022\u005c\\\"\/",
      "literals": [null, true, false]
    }`) as JsonValue;
    expect(canonicalJson(input)).toBe(
      String.raw`{"literals":[null,true,false],"numbers":[333333333.3333333,1e+30,4.5,0.002,1e-27],"string":"€$\u000f\nA'B\"\\\\\"/"}`,
    );
  });

  it('sorts properties by UTF-16 code units, as in RFC 8785 section 3.2.3', () => {
    const input = JSON.parse(String.raw`{
      "\u20ac": "Euro Sign",
      "\r": "Carriage Return",
      "\ufb33": "Hebrew Letter Dalet With Dagesh",
      "1": "One",
      "\ud83d\ude00": "Emoji: Grinning Face",
      "\u0080": "Control",
      "\u00f6": "Latin Small Letter O With Diaeresis"
    }`) as JsonValue;
    expect(canonicalJson(input)).toBe(
      '{"\\r":"Carriage Return","1":"One","\u0080":"Control","\u00f6":"Latin Small Letter O With Diaeresis",' +
        '"\u20ac":"Euro Sign","\ud83d\ude00":"Emoji: Grinning Face","\ufb33":"Hebrew Letter Dalet With Dagesh"}',
    );
    // The emoji (U+1F600, code units D83D DE00) sorts before U+FB33 by code units, though after it by code points.
    const keys = Object.keys(JSON.parse(canonicalJson(input)) as object);
    expect(keys.indexOf('\ud83d\ude00')).toBeLessThan(keys.indexOf('\ufb33'));
  });

  it('gives the UTF-8 bytes of RFC 8785 section 3.2.4 for the sorting example', () => {
    const input = JSON.parse(String.raw`{"\u20ac":"Euro Sign","\r":"Carriage Return","\ufb33":"Hebrew Letter Dalet With Dagesh","1":"One","\ud83d\ude00":"Emoji: Grinning Face","\u0080":"Control","\u00f6":"Latin Small Letter O With Diaeresis"}`) as JsonValue;
    const bytes = Buffer.from(canonicalJson(input), 'utf8').toString('hex');
    // The first property: {"\r":"Carriage Return", then "1":"One" (RFC 8785 section 3.2.4, first lines).
    expect(bytes.startsWith('7b225c72223a22436172726961676520526574' + '75726e222c2231223a224f6e65222c22c280223a')).toBe(true);
    // The emoji is four UTF-8 bytes, then the Hebrew letter three.
    expect(bytes).toContain('22f09f9880223a22456d6f6a69');
    expect(bytes).toContain('22efacb3223a22486562726577');
  });

  // RFC 8785 Appendix B: IEEE 754 value -> canonical text.
  const numbers: [string, string][] = [
    ['0000000000000000', '0'],
    ['8000000000000000', '0'], // minus zero
    ['0000000000000001', '5e-324'],
    ['8000000000000001', '-5e-324'],
    ['7fefffffffffffff', '1.7976931348623157e+308'],
    ['ffefffffffffffff', '-1.7976931348623157e+308'],
    ['4340000000000000', '9007199254740992'],
    ['c340000000000000', '-9007199254740992'],
    ['4430000000000000', '295147905179352830000'],
    ['44b52d02c7e14af5', '9.999999999999997e+22'],
    ['44b52d02c7e14af6', '1e+23'],
    ['44b52d02c7e14af7', '1.0000000000000001e+23'],
    ['444b1ae4d6e2ef4e', '999999999999999700000'],
    ['444b1ae4d6e2ef4f', '999999999999999900000'],
    ['444b1ae4d6e2ef50', '1e+21'],
    ['3eb0c6f7a0b5ed8c', '9.999999999999997e-7'],
    ['3eb0c6f7a0b5ed8d', '0.000001'],
    ['41b3de4355555553', '333333333.3333332'],
    ['41b3de4355555554', '333333333.33333325'],
    ['41b3de4355555555', '333333333.3333333'],
    ['41b3de4355555556', '333333333.3333334'],
    ['41b3de4355555557', '333333333.33333343'],
    ['becbf647612f3696', '-0.0000033333333333333333'],
    ['43143ff3c1cb0959', '1424953923781206.2'],
  ];
  it.each(numbers)('writes the IEEE 754 number %s as %s (RFC 8785 Appendix B)', (hex, text) => {
    expect(canonicalJson(fromIeeeHex(hex))).toBe(text);
  });

  it('writes 1e21 as 1e+21, 1e-7 as 1e-7, -0 as 0 and 333333333.33333329 as 333333333.3333333', () => {
    expect(canonicalJson([1e21, 1e-7, -0, 333333333.33333329, 1e20, 0.000001])).toBe(
      '[1e+21,1e-7,0,333333333.3333333,100000000000000000000,0.000001]',
    );
  });

  it('refuses NaN and the infinities (RFC 8785 Appendix B: "error")', () => {
    expect(() => canonicalJson(fromIeeeHex('7fffffffffffffff'))).toThrow(CanonicalJsonError);
    expect(() => canonicalJson(fromIeeeHex('7ff0000000000000'))).toThrow(/Infinity/);
    expect(() => canonicalJson({ a: [Number.NEGATIVE_INFINITY] })).toThrow(/value\.a\[0\] is -Infinity/);
  });

  it('escapes control characters as \\b \\t \\n \\f \\r or lower-case \\u00hh and leaves the rest as is', () => {
    const all = Array.from({ length: 0x20 }, (_, i) => String.fromCharCode(i)).join('');
    expect(canonicalJson(all)).toBe(
      '"\\u0000\\u0001\\u0002\\u0003\\u0004\\u0005\\u0006\\u0007\\b\\t\\n\\u000b\\f\\r\\u000e\\u000f' +
        '\\u0010\\u0011\\u0012\\u0013\\u0014\\u0015\\u0016\\u0017\\u0018\\u0019\\u001a\\u001b\\u001c\\u001d\\u001e\\u001f"',
    );
    expect(canonicalJson('"\\/\u007f\u2028\u2029é😀')).toBe('"\\"\\\\/\u007f\u2028\u2029é😀"');
  });

  it('refuses lone surrogates in strings and keys, which I-JSON excludes and UTF-8 cannot carry', () => {
    expect(() => canonicalJson('\ud800')).toThrow(/lone surrogate/);
    expect(() => canonicalJson('a\udc00')).toThrow(CanonicalJsonError);
    expect(() => canonicalJson({ ['\udbff']: 1 })).toThrow(/lone surrogate/);
    expect(canonicalJson('\ud83d\ude00')).toBe('"😀"');
  });

  it('sorts nested objects and keeps array order', () => {
    expect(canonicalJson({ b: { d: 1, c: [{ z: 1, y: 2 }, 3] }, a: [] })).toBe('{"a":[],"b":{"c":[{"y":2,"z":1},3],"d":1}}');
  });

  it('keeps a __proto__ own key as an ordinary property', () => {
    const parsed = JSON.parse('{"z":1,"__proto__":{"polluted":true},"a":2}') as JsonValue;
    expect(canonicalJson(parsed)).toBe('{"__proto__":{"polluted":true},"a":2,"z":1}');
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('refuses what is not JSON: functions, undefined, symbols, bigints, cycles and class instances', () => {
    const cycle: Record<string, unknown> = {};
    cycle.self = cycle;
    const bad: unknown[] = [() => 1, undefined, Symbol('s'), 1n, cycle, new Date(0), new Map()];
    for (const value of bad) expect(() => canonicalJson({ value } as unknown as JsonValue)).toThrow(CanonicalJsonError);
  });

  it('accepts the same value seen twice when it is not a cycle', () => {
    const shared = { x: 1 };
    expect(canonicalJson({ a: shared, b: shared })).toBe('{"a":{"x":1},"b":{"x":1}}');
  });

  it('agrees with JSON.stringify on sorted plain data', () => {
    const value = { a: 'text', b: 12.5, c: [true, false, null], d: { e: 'ü' } };
    expect(canonicalJson(value)).toBe(JSON.stringify(value));
  });
});
