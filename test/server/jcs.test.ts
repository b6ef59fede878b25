// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { canonicalize, compareUtf16, fingerprintInSlices, fingerprintOf, normalizeFingerprint, sha256Hex } from '../../server/jcs';

function fromBits(hex: string): number {
  const view = new DataView(new ArrayBuffer(8));
  view.setBigUint64(0, BigInt(`0x${hex}`));
  return view.getFloat64(0);
}

describe("the reference server's canonical JSON (RFC 8785)", () => {
  // RFC 8785 Appendix B: IEEE 754 bit patterns and their canonical text.
  const appendixB: [string, string][] = [
    ['0000000000000000', '0'],
    ['8000000000000000', '0'],
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
  it.each(appendixB)('writes the number with bits %s as %s (Appendix B)', (bits, text) => {
    expect(canonicalize(fromBits(bits))).toBe(text);
  });

  it('refuses NaN and the infinities (Appendix B)', () => {
    expect(() => canonicalize(fromBits('7fffffffffffffff'))).toThrow(/not a JSON number/);
    expect(() => canonicalize(fromBits('7ff0000000000000'))).toThrow(/not a JSON number/);
    expect(() => canonicalize(-Infinity)).toThrow(/not a JSON number/);
  });

  it('writes 1e21 as 1e+21, 1e-7 as 1e-7 and minus zero as 0', () => {
    expect(canonicalize(1e21)).toBe('1e+21');
    expect(canonicalize(1e20)).toBe('100000000000000000000');
    expect(canonicalize(1e-7)).toBe('1e-7');
    expect(canonicalize(1e-6)).toBe('0.000001');
    expect(canonicalize(-0)).toBe('0');
    expect(canonicalize([-0, 0])).toBe('[0,0]');
  });

  it('canonicalizes the example of RFC 8785 section 3.2.2 byte for byte', () => {
    const input = JSON.parse(
      '{"numbers": [333333333.33333329, 1E30, 4.50, 2e-3, 0.000000000000000000000000001],' +
        ' "string": "\\u20ac$\\u000F\\u000aA\'\\u0042\\u0022\\u005c\\\\\\"\\/",' +
        ' "literals": [null, true, false]}',
    );
    const text = canonicalize(input);
    expect(text).toBe(
      '{"literals":[null,true,false],"numbers":[333333333.3333333,1e+30,4.5,0.002,1e-27],"string":"€$\\u000f\\nA\'B\\"\\\\\\\\\\"/"}',
    );
    // Section 3.2.4: the UTF-8 bytes of that text.
    const hex = [
      '7b 22 6c 69 74 65 72 61 6c 73 22 3a 5b 6e 75 6c 6c 2c 74 72',
      '75 65 2c 66 61 6c 73 65 5d 2c 22 6e 75 6d 62 65 72 73 22 3a',
      '5b 33 33 33 33 33 33 33 33 33 2e 33 33 33 33 33 33 33 2c 31',
      '65 2b 33 30 2c 34 2e 35 2c 30 2e 30 30 32 2c 31 65 2d 32 37',
      '5d 2c 22 73 74 72 69 6e 67 22 3a 22 e2 82 ac 24 5c 75 30 30',
      '30 66 5c 6e 41 27 42 5c 22 5c 5c 5c 5c 5c 22 2f 22 7d',
    ]
      .join(' ')
      .replaceAll(' ', '');
    expect(Buffer.from(text, 'utf8').toString('hex')).toBe(hex);
  });

  it('sorts member names by UTF-16 code units, as in RFC 8785 section 3.2.3', () => {
    const input = {
      '\u20ac': 'Euro Sign',
      '\r': 'Carriage Return',
      '\ufb33': 'Hebrew Letter Dalet With Dagesh',
      '1': 'One',
      '\ud83d\ude00': 'Emoji: Grinning Face',
      '\u0080': 'Control',
      '\u00f6': 'Latin Small Letter O With Diaeresis',
    };
    const keys = Object.keys(JSON.parse(canonicalize(input)) as object);
    // Integer-like keys come first in any JS object, so read the order from the text itself.
    const text = canonicalize(input);
    const order = ['\\r', '1', '\u0080', '\u00f6', '\u20ac', '\ud83d\ude00', '\ufb33'].map((k) => text.indexOf(`"${k}"`));
    expect(order).toEqual([...order].sort((a, b) => a - b));
    expect(keys).toHaveLength(7);
    // An emoji (surrogates D83D…) sorts before U+FB33 by code units, though after it by code points.
    expect(compareUtf16('\ud83d\ude00', '\ufb33')).toBeLessThan(0);
    expect(compareUtf16('a', 'ab')).toBeLessThan(0);
  });

  it('escapes only what RFC 8785 requires, with lowercase hex', () => {
    expect(canonicalize('\u0000\u0008\u0009\u000a\u000c\u000d\u001f"\\/\u007f\u2028é😀')).toBe(
      '"\\u0000\\b\\t\\n\\f\\r\\u001f\\"\\\\/\u007f\u2028é😀"',
    );
  });

  it('sorts nested objects and keeps array order', () => {
    expect(canonicalize({ b: [3, { z: 1, a: 2 }], a: { d: null, c: true } })).toBe('{"a":{"c":true,"d":null},"b":[3,{"a":2,"z":1}]}');
  });

  it('keeps a __proto__ member as data', () => {
    const value = JSON.parse('{"__proto__": {"polluted": true}, "a": 1}');
    expect(canonicalize(value)).toBe('{"__proto__":{"polluted":true},"a":1}');
  });

  it('refuses what is not JSON: undefined, functions, bigints, cycles, lone surrogates, class instances', () => {
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(() => canonicalize(undefined)).toThrow();
    expect(() => canonicalize({ a: undefined })).toThrow(/undefined/);
    expect(() => canonicalize({ f: () => 1 })).toThrow(/function/);
    expect(() => canonicalize(10n)).toThrow(/bigint/);
    expect(() => canonicalize(cyclic)).toThrow(/cyclic/);
    expect(() => canonicalize('\ud800')).toThrow(/lone surrogate/);
    expect(() => canonicalize('\udc00x')).toThrow(/lone surrogate/);
    expect(() => canonicalize(new Date(0))).toThrow(/plain objects/);
  });

  it('shares a value that appears twice without calling it a cycle', () => {
    const shared = { x: 1 };
    expect(canonicalize({ a: shared, b: shared })).toBe('{"a":{"x":1},"b":{"x":1}}');
  });

  it('fingerprints with SHA-256 of the UTF-8 canonical text, in lowercase hex', () => {
    // Known digests: sha256("abc") and sha256("{}") (FIPS 180-2 example and the empty object).
    expect(sha256Hex('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    expect(fingerprintOf({})).toBe('44136fa355b3678a1146ad16f7e8649e94fb4fc21fe77e8310c060f61caaff8a');
    expect(fingerprintOf({ b: 1, a: 2 })).toBe(fingerprintOf({ a: 2, b: 1 }));
    expect(fingerprintOf({ a: 1 })).not.toBe(fingerprintOf({ a: 1.5 }));
  });

  it('reads a fingerprint in either case, with or without a sha256: prefix, and nothing else', () => {
    const hex = fingerprintOf({});
    expect(normalizeFingerprint(hex.toUpperCase())).toBe(hex);
    expect(normalizeFingerprint(`sha256:${hex}`)).toBe(hex);
    expect(normalizeFingerprint(hex.slice(1))).toBeUndefined();
    expect(normalizeFingerprint(42)).toBeUndefined();
  });

  it('writes any depth of nesting without recursion: 200,000 levels are no RangeError', () => {
    let deep: unknown = 0;
    for (let i = 0; i < 200_000; i++) deep = [deep];
    expect(canonicalize(deep)).toBe(`${'['.repeat(200_000)}0${']'.repeat(200_000)}`);
  });

  it('fingerprints a large value in slices, giving the event loop back between them, to the same digest', async () => {
    const wide = Object.fromEntries(Array.from({ length: 50_000 }, (_, i) => [`key-${i}`, { n: i, text: 'ünïcødé "quoted"' }]));
    let turns = 0;
    const ticking = setInterval(() => turns++, 0);
    const sliced = await fingerprintInSlices(wide, 1);
    clearInterval(ticking);
    expect(sliced).toBe(fingerprintOf(wide));
    expect(turns).toBeGreaterThan(0);
    await expect(fingerprintInSlices({ bad: undefined })).rejects.toThrow(/\$\.bad: a undefined is not a JSON value/);
  });
});
