/**
 * An incremental parser for a tool call's argument JSON, fed one fragment at a time.
 *
 * Why not reparse: partial-json and the AI SDK repair and reparse the whole buffer on every
 * fragment, so a stream costs O(n²). This parser keeps its place between fragments, so each
 * character is read once; the preview value is built only when read, copying just the
 * containers still open (closed subtrees are frozen once and shared between snapshots), and a
 * wide open container only at steps of its width (`shownEntries`), so reading after every
 * fragment costs in proportion to the text, not to the width of what is open.
 *
 * What a preview shows (docs/architecture.md, "Conventions"; each point has a test):
 * - never something the final value contradicts: a key appears only once it is complete and
 *   its value has begun; a number only once it is complete (`12` may yet become `123`); a
 *   literal as soon as its first letter decides it; a string grows as a prefix of its final
 *   value, without raw escape text or half of a surrogate pair;
 * - text that can never become JSON sets `error` (with a reason and an offset) and the
 *   preview stays at the last good value; later text is kept in `text` but not parsed;
 * - keys such as `__proto__` are ordinary own keys, as `JSON.parse` makes them.
 */
import { defineOwn } from './json-value';
import {
  ESCAPES,
  HEX_RE,
  LITERALS,
  LITERAL_VALUES,
  NUMBER_RE,
  describeChar,
  isHighSurrogate,
  isLowSurrogate,
  isNumberChar,
  isWhitespace,
} from './json-text';
import { EXACT_ENTRIES, type Frame, anyElements, shownEntries, wideSnapshot } from './parser-frame';
import { type TextLog, createTextLog } from './text-log';

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
  /**
   * The path of the first key written twice in one object (`{"amount":1,"to":"bob","amount":1000000}`
   * gives `['amount']`), or `undefined`. `JSON.parse` keeps the last value, and so does the preview,
   * so what showed first is not what the arguments end with: say so where they are shown.
   */
  readonly duplicateKeyPath: ArgumentsPath | undefined;
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
  return new IncrementalParser(options.keepText ?? true);
}

/**
 * The parser's state and steps. A class, not closures: every call of a session gets a parser,
 * and methods on one prototype keep the optimised code of one parser valid for the next (fresh
 * closures per parser made V8 throw that code away and start again for every call).
 */
class IncrementalParser implements ArgumentsParser {
  // Text is kept as a list of fragments joined on read: concatenating each fragment would build
  // a long-lived rope of one node per fragment, which costs more in garbage collection than the
  // parse itself.
  readonly #textLog: TextLog | undefined;
  #offset = 0; // characters consumed before the current fragment
  #mode: Mode = Mode.Value;
  #err: ArgumentsParseError | undefined = undefined;
  readonly #stack: Frame[] = [];
  #root: unknown = undefined;
  #done = false;
  #duplicateKeyPath: ArgumentsPath | undefined = undefined;

  // The token being read.
  #strIsKey = false;
  readonly #str: TextLog = createTextLog(); // the string's decoded text so far
  // A high surrogate that ended the decoded text so far, held out of `str` until the next
  // character: its low half may come in the next fragment, and a preview never shows half a pair.
  #heldHigh = '';
  #escape: string | undefined = undefined; // an escape being read, without its backslash ("u00")
  #pendingHigh = -1; // a \uD8xx escape waiting to see whether a low surrogate escape follows
  #numText = '';
  #literal = ''; // the literal being matched ('true' | 'false' | 'null')
  #literalAt = 0; // letters of it matched so far

  // The snapshot cache: valid until the next fragment changes something.
  #dirty = true;
  #snapshot: unknown = undefined;

  constructor(keepText: boolean) {
    this.#textLog = keepText ? createTextLog() : undefined;
  }

  push(delta: string): unknown {
    this.append(delta);
    return this.value;
  }

  append(delta: string): void {
    this.#textLog?.push(delta);
    if (this.#err === undefined && delta.length > 0) {
      this.#consume(delta);
      this.#dirty = true;
    }
    this.#offset += delta.length;
  }

  end(): unknown {
    if (this.#err === undefined) {
      if (this.#mode === Mode.Number && this.#stack.length === 0) this.#finishNumber(this.#offset);
      if (this.#err === undefined && !this.#done) {
        this.#fail(
          this.#mode === Mode.Value && this.#stack.length === 0
            ? 'the text holds no JSON value'
            : `the text ended at ${this.#offset} before the JSON value was complete`,
          this.#offset,
        );
      }
      this.#dirty = true;
    }
    return this.value;
  }

  get value(): unknown {
    if (this.#dirty) {
      this.#snapshot = this.#build();
      this.#dirty = false;
    }
    return this.#snapshot;
  }

  get path(): ArgumentsPath | undefined {
    if (this.#stack.length === 0) return undefined;
    return this.#pathOf(this.#stack.length);
  }

  get duplicateKeyPath(): ArgumentsPath | undefined {
    return this.#duplicateKeyPath;
  }

  /** The path through the first `depth` open containers, as far as their keys are known. */
  #pathOf(depth: number): (string | number)[] {
    const path: (string | number)[] = [];
    for (let k = 0; k < depth; k++) {
      const f = this.#stack[k] as Frame;
      if (f.isArray) path.push(f.items.length);
      else if (f.key !== undefined) path.push(f.key);
      else break;
    }
    return path;
  }

  get text(): string {
    return this.#textLog === undefined ? '' : this.#textLog.read();
  }

  get error(): ArgumentsParseError | undefined {
    return this.#err;
  }

  get complete(): boolean {
    return this.#done;
  }

  #fail(reason: string, at: number): void {
    // The mode stays as it was, so the preview still shows the valid text before `at`.
    this.#err = { reason, offset: at };
  }

  #completeValue(v: unknown): void {
    const frame = this.#stack[this.#stack.length - 1];
    if (frame === undefined) {
      this.#root = v;
      this.#done = true;
      this.#mode = Mode.Done;
      return;
    }
    if (frame.isArray) frame.items.push(v);
    else {
      if (!Object.prototype.hasOwnProperty.call(frame.obj, frame.key as string)) frame.size++;
      defineOwn(frame.obj, frame.key as string, v);
      if (frame.key === '__proto__') frame.protoKey = true;
    }
    frame.key = undefined;
    frame.version++;
    this.#mode = Mode.AfterValue;
  }

  #openFrame(isArray: boolean): void {
    this.#stack.push({
      isArray,
      items: isArray ? anyElements() : (undefined as never),
      obj: isArray ? (undefined as never) : {},
      key: undefined,
      protoKey: false,
      version: 0,
      size: 0,
      snap: undefined,
      snapVersion: -1,
      snapChild: NOTHING,
      snapShown: -1,
    });
    this.#mode = isArray ? Mode.ArrayFirst : Mode.ObjectFirst;
  }

  #closeFrame(): void {
    const frame = this.#stack.pop() as Frame;
    this.#completeValue(Object.freeze(frame.isArray ? frame.items : frame.obj));
  }

  #appendDecoded(s: string): void {
    if (this.#heldHigh !== '') {
      s = this.#heldHigh + s;
      this.#heldHigh = '';
    }
    if (isHighSurrogate(s.charCodeAt(s.length - 1))) {
      this.#heldHigh = s[s.length - 1] as string;
      if (s.length === 1) return;
      s = s.slice(0, -1);
    }
    this.#str.push(s);
  }

  #flushPendingHigh(): void {
    if (this.#pendingHigh >= 0) {
      this.#appendDecoded(String.fromCharCode(this.#pendingHigh));
      this.#pendingHigh = -1;
    }
  }

  #finishString(): void {
    this.#flushPendingHigh();
    if (this.#heldHigh !== '') {
      // A lone high surrogate at the end of the string is kept, as JSON.parse keeps it.
      this.#str.push(this.#heldHigh);
      this.#heldHigh = '';
    }
    const s = this.#str.take();
    if (this.#strIsKey) {
      const frame = this.#stack[this.#stack.length - 1] as Frame;
      if (this.#duplicateKeyPath === undefined && Object.prototype.hasOwnProperty.call(frame.obj, s)) {
        // The first repeat is the one to warn about: the value shown so far is about to change.
        this.#duplicateKeyPath = Object.freeze([...this.#pathOf(this.#stack.length - 1), s]);
      }
      frame.key = s;
      this.#mode = Mode.Colon;
    } else {
      this.#completeValue(s);
    }
  }

  #finishNumber(at: number): void {
    const numText = this.#numText;
    if (!NUMBER_RE.test(numText)) {
      this.#fail(`'${numText}' at ${at - numText.length} is not a valid JSON number`, at - numText.length);
      return;
    }
    this.#numText = '';
    this.#completeValue(Number(numText));
  }

  /** Start a value at character `ch`, or fail when none can start there. */
  #startValue(ch: string, c: number, at: number): void {
    if (c === 34) {
      this.#mode = Mode.String;
      this.#strIsKey = false;
    } else if (c === 123) this.#openFrame(false);
    else if (c === 91) this.#openFrame(true);
    else if (c === 45 || (c >= 48 && c <= 57)) {
      this.#mode = Mode.Number;
      this.#numText = ch;
    } else if (ch === 't' || ch === 'f' || ch === 'n') {
      this.#mode = Mode.Literal;
      this.#literal = LITERALS[ch];
      this.#literalAt = 1;
    } else if (ch === "'") this.#fail(`unexpected ${describeChar(ch)} at ${at}: JSON strings use double quotes`, at);
    else this.#fail(`unexpected ${describeChar(ch)} at ${at} where a value was expected`, at);
  }

  /** An escape's next character (after the backslash, or a hex digit of `\uXXXX`). */
  #escapeChar(ch: string, at: number): void {
    const escape = this.#escape as string;
    if (escape === '') {
      if (ch === 'u') {
        this.#escape = 'u';
        return;
      }
      const decoded = ESCAPES[ch];
      if (decoded === undefined) {
        this.#fail(`invalid escape '\\${ch}' at ${at - 1}`, at - 1);
        return;
      }
      this.#flushPendingHigh();
      this.#appendDecoded(decoded);
      this.#escape = undefined;
      return;
    }
    if (!HEX_RE.test(ch)) {
      this.#fail(`invalid unicode escape '\\${escape}${ch}' at ${at - escape.length - 1}`, at);
      return;
    }
    const hex = escape + ch;
    if (hex.length < 5) {
      this.#escape = hex;
      return;
    }
    const code = parseInt(hex.slice(1), 16);
    this.#escape = undefined;
    if (this.#pendingHigh >= 0 && isLowSurrogate(code)) {
      this.#appendDecoded(String.fromCharCode(this.#pendingHigh, code));
      this.#pendingHigh = -1;
    } else {
      this.#flushPendingHigh();
      // Hold a high surrogate back: its low half may be the next escape.
      if (isHighSurrogate(code)) this.#pendingHigh = code;
      else this.#appendDecoded(String.fromCharCode(code));
    }
  }

  /** A structural character (outside any token) at `at`. */
  #structural(ch: string, c: number, at: number): void {
    switch (this.#mode) {
      case Mode.Value:
        this.#startValue(ch, c, at);
        break;
      case Mode.ArrayFirst:
        if (c === 93) this.#closeFrame();
        else this.#startValue(ch, c, at);
        break;
      case Mode.ObjectFirst:
      case Mode.Key:
        if (c === 34) {
          this.#mode = Mode.String;
          this.#strIsKey = true;
        } else if (c === 125 && this.#mode === Mode.ObjectFirst) this.#closeFrame();
        else if (ch === "'") this.#fail(`unexpected "'" at ${at}: JSON strings use double quotes`, at);
        else if (c === 125) this.#fail(`unexpected '}' at ${at} after ',': a key was expected`, at);
        else this.#fail(`unexpected ${describeChar(ch)} at ${at} where a key in double quotes was expected`, at);
        break;
      case Mode.Colon:
        if (c === 58) this.#mode = Mode.Value;
        else this.#fail(`unexpected ${describeChar(ch)} at ${at} where ':' was expected after a key`, at);
        break;
      case Mode.AfterValue: {
        const frame = this.#stack[this.#stack.length - 1] as Frame;
        if (c === 44) this.#mode = frame.isArray ? Mode.Value : Mode.Key;
        else if (c === (frame.isArray ? 93 : 125)) this.#closeFrame();
        else this.#fail(`unexpected ${describeChar(ch)} at ${at} where ',' or '${frame.isArray ? ']' : '}'}' was expected`, at);
        break;
      }
      case Mode.Done:
        this.#fail(`unexpected ${describeChar(ch)} at ${at} after the end of the JSON value`, at);
        break;
    }
  }

  #consume(s: string): void {
    const n = s.length;
    let i = 0;
    while (i < n && this.#err === undefined) {
      const c = s.charCodeAt(i);
      switch (this.#mode) {
        case Mode.String: {
          if (this.#escape !== undefined) {
            this.#escapeChar(s[i] as string, this.#offset + i);
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
            this.#flushPendingHigh();
            this.#appendDecoded(i === 0 && j === n ? s : s.slice(i, j));
            i = j;
            break;
          }
          if (c === 34) this.#finishString();
          else if (c === 92) this.#escape = '';
          else {
            this.#fail(`raw control character ${describeChar(s[i] as string)} inside a string at ${this.#offset + i}: it must be escaped`, this.#offset + i);
            break;
          }
          i++;
          break;
        }
        case Mode.Number: {
          // The digits of this fragment at once; the character after the number is read again,
          // in the mode that follows it.
          let j = i;
          while (j < n && isNumberChar(s.charCodeAt(j))) j++;
          if (j > i) {
            this.#numText += i === 0 && j === n ? s : s.slice(i, j);
            i = j;
          }
          if (i < n) this.#finishNumber(this.#offset + i);
          break;
        }
        case Mode.Literal: {
          const ch = s[i] as string;
          if (ch !== this.#literal[this.#literalAt]) {
            this.#fail(`unexpected ${describeChar(ch)} at ${this.#offset + i} in '${this.#literal}'`, this.#offset + i);
            break;
          }
          this.#literalAt++;
          i++;
          if (this.#literalAt === this.#literal.length) this.#completeValue(LITERAL_VALUES[this.#literal]);
          break;
        }
        default: {
          if (!isWhitespace(c)) this.#structural(s[i] as string, c, this.#offset + i);
          i++;
        }
      }
    }
  }

  /** The partial value of the token being read, for the innermost open container (or the root). */
  #tokenPreview(): Maybe {
    if (this.#mode === Mode.String && !this.#strIsKey) {
      // A trailing high surrogate is held out of `str` (see `heldHigh`): no half pair shows.
      return this.#str.read();
    }
    if (this.#mode === Mode.Literal) return LITERAL_VALUES[this.#literal];
    return NOTHING;
  }

  #build(): unknown {
    const stack = this.#stack;
    if (stack.length === 0) {
      if (this.#done) return this.#root;
      const t = this.#tokenPreview();
      return t === NOTHING ? undefined : t;
    }
    let child = this.#tokenPreview();
    for (let k = stack.length - 1; k >= 0; k--) {
      const f = stack[k] as Frame;
      const shown = shownEntries(f.isArray ? f.items.length : f.size);
      if (shown >= EXACT_ENTRIES) {
        // A wide container: its completed entries up to a step, without the one being written.
        if (f.snapShown !== shown) {
          f.snap = wideSnapshot(f, shown);
          f.snapShown = shown;
          f.snapVersion = -1;
        }
        child = f.snap;
        continue;
      }
      if (f.snapVersion === f.version && f.snapChild === child) {
        child = f.snap;
        continue;
      }
      let out: unknown;
      if (f.isArray) {
        // concat allocates the copy at its final length (slice then push would grow it again).
        out = Object.freeze(child === NOTHING ? f.items.slice() : f.items.concat([child]));
      } else {
        // Object.assign, not a spread: V8 gives a spread copy a map that turns slow (about five
        // times the cost) when the open key is then added and the object frozen. A spread only
        // for an own '__proto__', which Object.assign would set as the prototype.
        const o: Record<string, unknown> = f.protoKey ? { ...f.obj } : Object.assign({}, f.obj);
        if (child !== NOTHING && f.key !== undefined) defineOwn(o, f.key, child);
        out = Object.freeze(o);
      }
      f.snap = out;
      f.snapVersion = f.version;
      f.snapChild = child;
      f.snapShown = -1;
      child = out;
    }
    return child;
  }
}

