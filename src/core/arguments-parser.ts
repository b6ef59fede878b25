/**
 * An incremental parser for a tool call's argument JSON, fed one fragment at a time.
 *
 * Why not reparse: partial-json and the AI SDK repair and reparse the whole buffer on every
 * fragment, so a stream costs O(n²). This parser keeps its place between fragments, so each
 * character is read once; the preview value is built only when read, copying just the
 * containers still open (closed subtrees are frozen once and shared between snapshots).
 *
 * What a preview shows (DESIGN "Quality bars"; each point has a test):
 * - never something the final value contradicts: a key appears only once it is complete and
 *   its value has begun; a number only once it is complete (`12` may yet become `123`); a
 *   literal as soon as its first letter decides it; a string grows as a prefix of its final
 *   value, without raw escape text or half of a surrogate pair;
 * - text that can never become JSON sets `error` (with a reason and an offset) and the
 *   preview stays at the last good value; later text is kept in `text` but not parsed;
 * - keys such as `__proto__` are ordinary own keys, as `JSON.parse` makes them.
 */
import { defineOwn } from './json-value';

/**
 * Why argument text can never become valid JSON, and where.
 *
 * @example
 * const { error } = parsePartialArguments('{"a":1]');
 * if (error) console.warn(error.reason, 'at', error.offset);
 */
export interface ArgumentsParseError {
  /** Why the text can never become valid JSON. */
  reason: string;
  /** The offset (in UTF-16 units) in `text` of the first character that made it invalid. */
  offset: number;
}

/**
 * A path into the arguments: object keys and array indices.
 *
 * @example
 * const path: ArgumentsPath = ['legs', 0, 'from']; // args.legs[0].from
 */
export type ArgumentsPath = readonly (string | number)[];

/**
 * An incremental parser of streamed argument JSON: each character is read once.
 *
 * @example
 * const parser: ArgumentsParser = createArgumentsParser();
 * parser.push('{"q":"ca');
 * parser.value // { q: 'ca' }
 */
export interface ArgumentsParser {
  /** Append the next fragment and return the preview (`value`). */
  push(delta: string): unknown;
  /** Append the next fragment without building the preview (it is built when `value` is read). */
  append(delta: string): void;
  /**
   * No more text will come: completes a trailing number and returns the final value, or
   * sets `error` when the text is not one whole JSON value.
   */
  end(): unknown;
  /** The best-effort preview: a frozen value, `undefined` until there is something to show. */
  readonly value: unknown;
  /** The path of the value being written, or `undefined` when nothing is open. */
  readonly path: ArgumentsPath | undefined;
  /** All text pushed so far (`''` when created with `keepText: false`). */
  readonly text: string;
  /** Set once the text can never become valid JSON. */
  readonly error: ArgumentsParseError | undefined;
  /** A whole JSON value has been read (only whitespace may follow). */
  readonly complete: boolean;
}

/**
 * Parse a whole (possibly partial) text at once: the preview a fresh parser gives for it.
 *
 * @example
 * parsePartialArguments('{"to":"bob","amount":5').value // { to: 'bob', amount: 5 }
 */
export function parsePartialArguments(text: string): { value: unknown; error: ArgumentsParseError | undefined } {
  const parser = createArgumentsParser();
  parser.append(text);
  return { value: parser.value, error: parser.error };
}

const NOTHING: unique symbol = Symbol('nothing');
type Maybe = unknown; // a value, or NOTHING when there is nothing to show yet

// What the parser expects next, outside of a token.
const enum Mode {
  Value, // a value (root, after ':' or after ',' in an array)
  ArrayFirst, // after '[': a value or ']'
  ObjectFirst, // after '{': a key or '}'
  Key, // after ',' in an object: a key
  Colon, // after a key
  AfterValue, // after a value inside a container: ',' or the closing bracket
  Done, // the root value is complete: only whitespace
  String,
  Number,
  Literal,
}

interface Frame {
  isArray: boolean;
  /** Completed items (arrays) or entries (objects); frozen and handed out when the container closes. */
  items: unknown[];
  obj: Record<string, unknown>;
  /** The completed key whose value is being read (objects). */
  key: string | undefined;
  /** Bumped whenever a completed child is added, to know when `snap` is stale. */
  version: number;
  snap: unknown;
  snapVersion: number;
  snapChild: Maybe;
}

const LITERALS = { t: 'true', f: 'false', n: 'null' } as const;
const LITERAL_VALUES: Record<string, boolean | null> = { true: true, false: false, null: null };
const NUMBER_RE = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/;
const ESCAPES: Record<string, string> = { '"': '"', '\\': '\\', '/': '/', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' };

const isHighSurrogate = (code: number) => code >= 0xd800 && code <= 0xdbff;
const isLowSurrogate = (code: number) => code >= 0xdc00 && code <= 0xdfff;
const isNumberChar = (c: number) => (c >= 48 && c <= 57) || c === 45 || c === 43 || c === 46 || c === 101 || c === 69;
const isWhitespace = (c: number) => c === 32 || c === 10 || c === 13 || c === 9;

function describeChar(ch: string): string {
  const code = ch.charCodeAt(0);
  if (code < 0x20 || code === 0x7f) return `U+${code.toString(16).toUpperCase().padStart(4, '0')}`;
  return ch === "'" ? `"'"` : `'${ch}'`;
}

/**
 * Create an incremental parser for streamed argument JSON.
 *
 * @example
 * const parser = createArgumentsParser();
 * parser.push('{"city": "Par');   // → { city: 'Par' }
 * parser.push('is", "days": 3');  // → { city: 'Paris' }   (3 may still grow)
 * parser.push('}');               // → { city: 'Paris', days: 3 }
 */
export interface ArgumentsParserOptions {
  /**
   * Keep the text pushed so far for `text` (default true). The store keeps each call's
   * `argumentsText` itself and turns this off, so raw fragment text is not kept twice.
   */
  keepText?: boolean;
}

/**
 * Create an incremental parser for one call's argument text: `push` each fragment and read `value` (a best-effort, frozen preview), `error` once the text can never be valid JSON.
 *
 * @example
 * const parser = createArgumentsParser();
 * for (const delta of ['{"city":"Par', 'is","days":[1,', '2]}']) parser.push(delta);
 * parser.value // { city: 'Paris', days: [1, 2] }
 * parser.complete // true
 */
export function createArgumentsParser(options: ArgumentsParserOptions = {}): ArgumentsParser {
  const keepText = options.keepText ?? true;
  // Text is kept as a list of fragments joined on read: concatenating each fragment would build
  // a long-lived rope of one node per fragment, which costs more in garbage collection than the
  // parse itself.
  const textLog = createTextLog();
  let offset = 0; // characters consumed before the current fragment
  let mode: Mode = Mode.Value;
  let error: ArgumentsParseError | undefined;
  const stack: Frame[] = [];
  let root: unknown;
  let complete = false;

  // The token being read.
  let strIsKey = false;
  const str = createTextLog(); // the string's decoded text so far
  let strEndsHigh = false; // the decoded text ends with a high surrogate whose pair may follow
  let escape: string | undefined; // an escape being read, without its backslash ("u00")
  let pendingHigh = -1; // a \uD8xx escape waiting to see whether a low surrogate escape follows
  let numText = '';
  let literal = ''; // the literal being matched ('true' | 'false' | 'null')
  let literalAt = 0; // letters of it matched so far

  // The snapshot cache: valid until the next fragment changes something.
  let dirty = true;
  let snapshot: unknown;

  const fail = (reason: string, at: number) => {
    // The mode stays as it was, so the preview still shows the valid text before `at`.
    error = { reason, offset: at };
  };

  const completeValue = (v: unknown) => {
    const frame = stack[stack.length - 1];
    if (frame === undefined) {
      root = v;
      complete = true;
      mode = Mode.Done;
      return;
    }
    if (frame.isArray) frame.items.push(v);
    else defineOwn(frame.obj, frame.key as string, v);
    frame.key = undefined;
    frame.version++;
    mode = Mode.AfterValue;
  };

  const openFrame = (isArray: boolean) => {
    stack.push({
      isArray,
      items: isArray ? [] : (undefined as never),
      obj: isArray ? (undefined as never) : {},
      key: undefined,
      version: 0,
      snap: undefined,
      snapVersion: -1,
      snapChild: NOTHING,
    });
    mode = isArray ? Mode.ArrayFirst : Mode.ObjectFirst;
  };

  const closeFrame = () => {
    const frame = stack.pop() as Frame;
    completeValue(Object.freeze(frame.isArray ? frame.items : frame.obj));
  };

  const appendDecoded = (s: string) => {
    str.push(s);
    strEndsHigh = isHighSurrogate(s.charCodeAt(s.length - 1));
  };

  const flushPendingHigh = () => {
    if (pendingHigh >= 0) {
      appendDecoded(String.fromCharCode(pendingHigh));
      pendingHigh = -1;
    }
  };

  const finishString = () => {
    flushPendingHigh();
    const s = str.take();
    strEndsHigh = false;
    if (strIsKey) {
      (stack[stack.length - 1] as Frame).key = s;
      mode = Mode.Colon;
    } else {
      completeValue(s);
    }
  };

  const finishNumber = (at: number) => {
    if (!NUMBER_RE.test(numText)) {
      fail(`'${numText}' at ${at - numText.length} is not a valid JSON number`, at - numText.length);
      return;
    }
    const n = Number(numText);
    numText = '';
    completeValue(n);
  };

  /** Start a value at character `ch`, or fail when none can start there. */
  const startValue = (ch: string, c: number, at: number): void => {
    if (c === 34) {
      mode = Mode.String;
      strIsKey = false;
    } else if (c === 123) openFrame(false);
    else if (c === 91) openFrame(true);
    else if (c === 45 || (c >= 48 && c <= 57)) {
      mode = Mode.Number;
      numText = ch;
    } else if (ch === 't' || ch === 'f' || ch === 'n') {
      mode = Mode.Literal;
      literal = LITERALS[ch];
      literalAt = 1;
    } else if (ch === "'") fail(`unexpected ${describeChar(ch)} at ${at}: JSON strings use double quotes`, at);
    else fail(`unexpected ${describeChar(ch)} at ${at} where a value was expected`, at);
  };

  const consume = (s: string) => {
    const n = s.length;
    let i = 0;
    while (i < n && error === undefined) {
      const c = s.charCodeAt(i);
      switch (mode) {
        case Mode.String: {
          if (escape !== undefined) {
            const ch = s[i] as string;
            if (escape === '') {
              if (ch === 'u') escape = 'u';
              else {
                const decoded = ESCAPES[ch];
                if (decoded === undefined) {
                  fail(`invalid escape '\\${ch}' at ${offset + i - 1}`, offset + i - 1);
                  break;
                }
                flushPendingHigh();
                appendDecoded(decoded);
                escape = undefined;
              }
            } else {
              if (!/[0-9a-fA-F]/.test(ch)) {
                fail(`invalid unicode escape '\\${escape}${ch}' at ${offset + i - escape.length - 1}`, offset + i);
                break;
              }
              escape += ch;
              if (escape.length === 5) {
                const code = parseInt(escape.slice(1), 16);
                escape = undefined;
                if (pendingHigh >= 0 && isLowSurrogate(code)) {
                  appendDecoded(String.fromCharCode(pendingHigh, code));
                  pendingHigh = -1;
                } else {
                  flushPendingHigh();
                  // Hold a high surrogate back: its low half may be the next escape.
                  if (isHighSurrogate(code)) pendingHigh = code;
                  else appendDecoded(String.fromCharCode(code));
                }
              }
            }
            i++;
            break;
          }
          // Fast path: copy the run of plain characters at once.
          let j = i;
          while (j < n) {
            const d = s.charCodeAt(j);
            if (d === 34 || d === 92 || d < 0x20) break;
            j++;
          }
          if (j > i) {
            flushPendingHigh();
            appendDecoded(i === 0 && j === n ? s : s.slice(i, j));
            i = j;
            break;
          }
          if (c === 34) {
            finishString();
          } else if (c === 92) {
            escape = '';
          } else {
            fail(`raw control character ${describeChar(s[i] as string)} inside a string at ${offset + i}: it must be escaped`, offset + i);
            break;
          }
          i++;
          break;
        }
        case Mode.Number: {
          if (isNumberChar(c)) {
            numText += s[i];
            i++;
          } else {
            // The character after the number is read again, in the mode that follows it.
            finishNumber(offset + i);
          }
          break;
        }
        case Mode.Literal: {
          const ch = s[i] as string;
          if (ch !== literal[literalAt]) {
            fail(`unexpected ${describeChar(ch)} at ${offset + i} in '${literal}'`, offset + i);
            break;
          }
          literalAt++;
          i++;
          if (literalAt === literal.length) completeValue(LITERAL_VALUES[literal]);
          break;
        }
        default: {
          if (isWhitespace(c)) {
            i++;
            break;
          }
          const ch = s[i] as string;
          const at = offset + i;
          i++;
          switch (mode) {
            case Mode.Value:
              startValue(ch, c, at);
              break;
            case Mode.ArrayFirst:
              if (c === 93) closeFrame();
              else startValue(ch, c, at);
              break;
            case Mode.ObjectFirst:
            case Mode.Key:
              if (c === 34) {
                mode = Mode.String;
                strIsKey = true;
              } else if (c === 125 && mode === Mode.ObjectFirst) closeFrame();
              else if (ch === "'") fail(`unexpected "'" at ${at}: JSON strings use double quotes`, at);
              else if (c === 125) fail(`unexpected '}' at ${at} after ',': a key was expected`, at);
              else fail(`unexpected ${describeChar(ch)} at ${at} where a key in double quotes was expected`, at);
              break;
            case Mode.Colon:
              if (c === 58) mode = Mode.Value;
              else fail(`unexpected ${describeChar(ch)} at ${at} where ':' was expected after a key`, at);
              break;
            case Mode.AfterValue: {
              const frame = stack[stack.length - 1] as Frame;
              if (c === 44) mode = frame.isArray ? Mode.Value : Mode.Key;
              else if (c === (frame.isArray ? 93 : 125)) closeFrame();
              else fail(`unexpected ${describeChar(ch)} at ${at} where ',' or '${frame.isArray ? ']' : '}'}' was expected`, at);
              break;
            }
            case Mode.Done:
              fail(`unexpected ${describeChar(ch)} at ${at} after the end of the JSON value`, at);
              break;
          }
        }
      }
    }
  };

  /** The partial value of the token being read, for the innermost open container (or the root). */
  const tokenPreview = (): Maybe => {
    if (mode === Mode.String && !strIsKey) {
      // Never show half of a surrogate pair whose other half is still to come.
      const s = str.read();
      return strEndsHigh ? s.slice(0, -1) : s;
    }
    if (mode === Mode.Literal) return LITERAL_VALUES[literal];
    return NOTHING;
  };

  const build = (): unknown => {
    if (stack.length === 0) {
      if (complete) return root;
      const t = tokenPreview();
      return t === NOTHING ? undefined : t;
    }
    let child = tokenPreview();
    for (let k = stack.length - 1; k >= 0; k--) {
      const f = stack[k] as Frame;
      if (f.snapVersion === f.version && f.snapChild === child) {
        child = f.snap;
        continue;
      }
      let out: unknown;
      if (f.isArray) {
        // concat allocates the copy at its final length (slice then push would grow it again).
        out = Object.freeze(child === NOTHING ? f.items.slice() : f.items.concat([child]));
      } else {
        const o: Record<string, unknown> = { ...f.obj };
        if (child !== NOTHING && f.key !== undefined) defineOwn(o, f.key, child);
        out = Object.freeze(o);
      }
      f.snap = out;
      f.snapVersion = f.version;
      f.snapChild = child;
      child = out;
    }
    return child;
  };

  return {
    push(delta) {
      this.append(delta);
      return this.value;
    },
    append(delta) {
      if (keepText) textLog.push(delta);
      if (error === undefined && delta.length > 0) {
        consume(delta);
        dirty = true;
      }
      offset += delta.length;
    },
    end() {
      if (error === undefined) {
        if (mode === Mode.Number && stack.length === 0) finishNumber(offset);
        if (error === undefined && !complete) {
          fail(
            mode === Mode.Value && stack.length === 0
              ? 'the text holds no JSON value'
              : `the text ended at ${offset} before the JSON value was complete`,
            offset,
          );
        }
        dirty = true;
      }
      return this.value;
    },
    get value() {
      if (dirty) {
        snapshot = build();
        dirty = false;
      }
      return snapshot;
    },
    get path() {
      if (stack.length === 0) return undefined;
      const path: (string | number)[] = [];
      for (const f of stack) {
        if (f.isArray) path.push(f.items.length);
        else if (f.key !== undefined) path.push(f.key);
        else break;
      }
      return path;
    },
    get text() {
      return textLog.read();
    },
    get error() {
      return error;
    },
    get complete() {
      return complete;
    },
  };
}

/**
 * Text built from pieces: pushing is O(1), and reading joins only what came since the last
 * read, so a preview read once per frame of a long string costs O(total length) overall.
 *
 * @example
 * const log: TextLog = createTextLog();
 * log.push('{"q":');
 * log.push('"cats"}');
 * log.read() // '{"q":"cats"}'
 */
export interface TextLog {
  push(piece: string): void;
  /** The whole text so far. */
  read(): string;
  /** The whole text, and start again from empty. */
  take(): string;
}

/**
 * Create a {@link TextLog}: text built from pieces, joined lazily on read.
 *
 * @example
 * const log = createTextLog();
 * for (const delta of deltas) log.push(delta);
 * const text = log.read();
 */
export function createTextLog(): TextLog {
  let head = '';
  // Reused, never replaced or truncated (setting an array's length is slow): `count` says how
  // much of it holds pieces of the current text.
  const tail: string[] = [];
  let count = 0;
  const joined = (): string => {
    // Most strings are a few pieces long; a generic join costs more than concatenating them.
    switch (count) {
      case 0:
        return head;
      case 1:
        return head + (tail[0] as string);
      case 2:
        return head + (tail[0] as string) + (tail[1] as string);
      default:
        if (tail.length !== count) tail.length = count;
        return head + tail.join('');
    }
  };
  return {
    push(piece) {
      tail[count++] = piece;
    },
    read() {
      if (count > 0) {
        head = joined();
        count = 0;
      }
      return head;
    },
    take() {
      const text = joined();
      head = '';
      count = 0;
      return text;
    },
  };
}
