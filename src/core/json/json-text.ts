/**
 * The characters of JSON text, as the argument parser reads them one at a time: literals,
 * numbers, escapes, surrogates, whitespace, and how a character is named in an error.
 */

export const LITERALS = { t: 'true', f: 'false', n: 'null' } as const;
export const LITERAL_VALUES: Record<string, boolean | null> = { true: true, false: false, null: null };
export const NUMBER_RE = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/;
export const HEX_RE = /[0-9a-fA-F]/;
export const ESCAPES: Record<string, string> = { '"': '"', '\\': '\\', '/': '/', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' };

export const isHighSurrogate = (code: number) => code >= 0xd800 && code <= 0xdbff;
export const isLowSurrogate = (code: number) => code >= 0xdc00 && code <= 0xdfff;
export const isNumberChar = (c: number) => (c >= 48 && c <= 57) || c === 45 || c === 43 || c === 46 || c === 101 || c === 69;
export const isWhitespace = (c: number) => c === 32 || c === 10 || c === 13 || c === 9;

export function describeChar(ch: string): string {
  const code = ch.charCodeAt(0);
  if (code < 0x20 || code === 0x7f) return `U+${code.toString(16).toUpperCase().padStart(4, '0')}`;
  return ch === "'" ? `"'"` : `'${ch}'`;
}
