/**
 * Google Gemini `streamGenerateContent` responses (Gemini API and Vertex AI, raw or through
 * `@google/genai`'s `generateContentStream`).
 *
 * Calls are `functionCall` parts. Most models send each call whole (`{ name, args }`, several
 * in one chunk). With `streamFunctionCallArguments` (Gemini 3), a call opens with
 * `{ name, willContinue: true }` and its arguments arrive as `partialArgs` entries addressed
 * by `jsonPath` (`$.recipe.steps[1]`), with no JSON text at all; the call ends with a part
 * whose `willContinue` is absent, often the empty `functionCall: {}`.
 *
 * Decision: the adapter writes the JSON text those entries describe and streams it as
 * `arguments-delta`, so the kit's incremental parser previews Gemini's arguments like every
 * other provider's; the call then completes with the object rebuilt from the paths (the
 * provider's own value). The text is exactly `JSON.stringify` of that object when the paths
 * arrive in document order, which every recording shows. Should a path step back into a
 * container that was already closed, the text can no longer follow: the adapter stops
 * streaming text for that call and the rebuilt object still completes it.
 */
import { defineOwn } from '../core/json/json-value';
import { defineAdapter, type AdapterOptions, type ToolStreamAdapter } from './base';
import { CallBook, type OpenCall } from './call-book';
import { isRecord, MalformedChunk, optArray, optNumber, optRecord, optString, type Rec } from './chunk-fields';

/**
 * Options of {@link createGeminiAdapter}: those of every adapter.
 *
 * @example
 * const adapter = createGeminiAdapter({ turnId: 'turn-1', onError: (reason) => console.warn(reason) } satisfies GeminiAdapterOptions);
 */
export type GeminiAdapterOptions = AdapterOptions;

/* ------------------------------------------------------------ jsonPath args */

type Segment = string | number;
type Container = Record<string, unknown> | unknown[];

/** Parse `$.a.b[0]['c d']` into segments; throws MalformedChunk on anything else. */
export function parseJsonPath(path: string): Segment[] {
  if (!path.startsWith('$')) throw new MalformedChunk(`jsonPath ${JSON.stringify(path)} does not start with $`);
  const segments: Segment[] = [];
  let i = 1;
  while (i < path.length) {
    const c = path[i];
    if (c === '.') {
      let j = i + 1;
      while (j < path.length && path[j] !== '.' && path[j] !== '[') j++;
      if (j === i + 1) throw new MalformedChunk(`jsonPath ${JSON.stringify(path)} has an empty key`);
      segments.push(path.slice(i + 1, j));
      i = j;
    } else if (c === '[') {
      const q = path[i + 1];
      if (q === "'" || q === '"') {
        let j = i + 2;
        let key = '';
        while (j < path.length && path[j] !== q) {
          if (path[j] === '\\' && j + 1 < path.length) j++;
          key += path[j];
          j++;
        }
        if (path[j] !== q || path[j + 1] !== ']') throw new MalformedChunk(`jsonPath ${JSON.stringify(path)} has an unclosed key`);
        segments.push(key);
        i = j + 2;
      } else {
        const close = path.indexOf(']', i);
        const digits = close === -1 ? '' : path.slice(i + 1, close);
        if (!/^\d+$/.test(digits)) throw new MalformedChunk(`jsonPath ${JSON.stringify(path)} has a bad index`);
        segments.push(Number(digits));
        i = close + 1;
      }
    } else {
      throw new MalformedChunk(`jsonPath ${JSON.stringify(path)} cannot be read at ${i}`);
    }
  }
  return segments;
}

interface PartialArg {
  segments: Segment[];
  /** The value, or for strings the next piece of the value. */
  value: unknown;
  isString: boolean;
  willContinue: boolean;
}

function readPartialArg(raw: unknown, where: string): PartialArg | undefined {
  if (!isRecord(raw)) throw new MalformedChunk(`${where} is not an object`);
  const path = optString(raw, 'jsonPath', where);
  if (path === undefined) throw new MalformedChunk(`${where}.jsonPath is missing`);
  const segments = parseJsonPath(path);
  if (segments.length === 0) throw new MalformedChunk(`${where}.jsonPath addresses the root, which must be an object`);
  const willContinue = raw.willContinue === true;
  const s = optString(raw, 'stringValue', where);
  if (s !== undefined) return { segments, value: s, isString: true, willContinue };
  const n = raw.numberValue;
  if (n !== undefined && n !== null) {
    if (typeof n !== 'number') throw new MalformedChunk(`${where}.numberValue is not a number`);
    // JSON cannot carry NaN or Infinity; JSON.stringify would write null, so hold null too.
    return { segments, value: Number.isFinite(n) ? n : null, isString: false, willContinue };
  }
  const b = raw.boolValue;
  if (b !== undefined && b !== null) {
    if (typeof b !== 'boolean') throw new MalformedChunk(`${where}.boolValue is not a boolean`);
    return { segments, value: b, isString: false, willContinue };
  }
  if ('nullValue' in raw) return { segments, value: null, isString: false, willContinue };
  return undefined; // an entry with no value says nothing
}

function hasChild(node: Container, seg: Segment): boolean {
  return Array.isArray(node) ? typeof seg === 'number' && seg < node.length : Object.prototype.hasOwnProperty.call(node, seg);
}

function getChild(node: Container, seg: Segment): unknown {
  return Array.isArray(node) ? node[seg as number] : (node as Record<string, unknown>)[seg as string];
}

function setChild(node: Container, seg: Segment, value: unknown): void {
  if (Array.isArray(node)) {
    // A skipped index becomes null, as JSON.stringify writes holes.
    while (node.length < (seg as number)) node.push(null);
    node[seg as number] = value;
  } else {
    // `defineOwn`: a key named __proto__ stays an own key, never the prototype.
    defineOwn(node, seg as string, value);
  }
}

interface OpenFrame {
  /** The segment that leads to this container from its parent (null for the root). */
  seg: Segment | null;
  isArray: boolean;
}

/**
 * Rebuilds the arguments object from `partialArgs` entries and writes the JSON text of what
 * it holds so far, so that all text + `close()` is `JSON.stringify(value)`.
 */
export class PartialArgsBuilder {
  readonly value: Record<string, unknown> = {};
  /** Containers whose closing bracket is not written yet: root first. */
  private stack: OpenFrame[] = [];
  /** The string value whose closing quote is not written yet. */
  private openString: { key: string; parent: Container; seg: Segment } | undefined;
  /** Set once a path stepped back into closed text; from then on only `value` is kept. */
  private detached = false;

  /** Whether the text stopped following the value (a path stepped back). */
  get textDetached(): boolean {
    return this.detached;
  }

  /** Apply one entry; returns the JSON text it adds. Throws MalformedChunk before any change. */
  apply(entry: PartialArg): string {
    const key = JSON.stringify(entry.segments);
    if (entry.isString && this.openString?.key === key) {
      const { parent, seg } = this.openString;
      const piece = entry.value as string;
      setChild(parent, seg, (getChild(parent, seg) as string) + piece);
      let text = this.detached ? '' : JSON.stringify(piece).slice(1, -1);
      if (!entry.willContinue) {
        // Gemini closes each string with one more entry without willContinue (often "").
        this.openString = undefined;
        if (!this.detached) text += '"';
      }
      return text;
    }

    const containers = entry.segments.slice(0, -1);
    const leaf = entry.segments[entry.segments.length - 1] as Segment;
    const openDepth = this.commonDepth(containers);

    // 1. Look, without changing anything: where does the path leave what exists, and does
    //    it step back into a container whose text is already closed?
    let node: Container | undefined = this.value;
    let steppedBack = false;
    for (let d = 0; d < containers.length && node !== undefined; d++) {
      const seg = containers[d] as Segment;
      checkFit(node, seg);
      const child = hasChild(node, seg) ? getChild(node, seg) : undefined;
      const wantArray = typeof entry.segments[d + 1] === 'number';
      if (typeof child === 'object' && child !== null) {
        if (Array.isArray(child) !== wantArray) {
          throw new MalformedChunk(`jsonPath ${describePath(entry.segments)} treats an ${Array.isArray(child) ? 'array' : 'object'} as the other kind`);
        }
        if (d >= openDepth) steppedBack = true;
        node = child as Container;
      } else {
        if (child !== undefined) steppedBack = true; // a value turns into a container
        node = undefined;
      }
    }
    if (node !== undefined) checkFit(node, leaf);
    const existing = node !== undefined && hasChild(node, leaf) ? getChild(node, leaf) : undefined;
    if (entry.isString && typeof existing === 'string' && !steppedBack) {
      // More of a string that was closed already: an empty piece (Gemini's closing entry
      // arriving late) changes nothing; a real piece can only go into the value.
      const piece = entry.value as string;
      if (piece !== '') {
        setChild(node!, leaf, existing + piece);
        this.detached = true;
      }
      return this.closeString();
    }
    if (existing !== undefined) steppedBack = true;

    // 2. Write the text from the state before the change, 3. then change the value.
    let text = this.closeString();
    if (steppedBack) this.detached = true;
    if (!this.detached) text += this.writeNavigation(containers, leaf, openDepth, entry);
    let target: Container = this.value;
    for (let d = 0; d < containers.length; d++) {
      const seg = containers[d] as Segment;
      const child = hasChild(target, seg) ? getChild(target, seg) : undefined;
      if (typeof child === 'object' && child !== null) {
        target = child as Container;
      } else {
        const created: Container = typeof entry.segments[d + 1] === 'number' ? [] : {};
        setChild(target, seg, created);
        target = created;
      }
    }
    setChild(target, leaf, entry.value);
    if (entry.isString && entry.willContinue) this.openString = { key, parent: target, seg: leaf };
    return this.detached ? '' : text;
  }

  /** The text that closes everything still open. */
  close(): string {
    if (this.detached) return '';
    let text = this.closeString();
    if (this.stack.length === 0) return `${text}{}`;
    while (this.stack.length > 0) text += this.stack.pop()!.isArray ? ']' : '}';
    return text;
  }

  private closeString(): string {
    if (this.openString === undefined) return '';
    this.openString = undefined;
    return this.detached ? '' : '"';
  }

  /** How many of `containers` are open in the text right now. */
  private commonDepth(containers: Segment[]): number {
    let depth = 0;
    while (depth < containers.length && depth + 1 < this.stack.length && this.stack[depth + 1]!.seg === containers[depth]) depth++;
    return depth;
  }

  private writeNavigation(containers: Segment[], leaf: Segment, openDepth: number, entry: PartialArg): string {
    let text = '';
    if (this.stack.length === 0) {
      this.stack.push({ seg: null, isArray: false });
      text += '{';
    }
    while (this.stack.length > openDepth + 1) text += this.stack.pop()!.isArray ? ']' : '}';
    // The deepest open container exists in `value`; everything below it is new.
    let parent: Container | undefined = this.value;
    for (let d = 0; d < openDepth; d++) parent = getChild(parent!, containers[d] as Segment) as Container;
    for (let d = openDepth; d < containers.length; d++) {
      const seg = containers[d] as Segment;
      const isArray = typeof entry.segments[d + 1] === 'number';
      text += memberPrefix(parent, seg);
      text += isArray ? '[' : '{';
      this.stack.push({ seg, isArray });
      parent = undefined;
    }
    text += memberPrefix(parent, leaf);
    const json = JSON.stringify(entry.value);
    // A string that goes on stays open: no closing quote yet.
    text += entry.isString && entry.willContinue ? json.slice(0, -1) : json;
    return text;
  }
}

/** Comma, skipped array slots (null, as JSON.stringify writes holes) and key before a new member. */
function memberPrefix(parent: Container | undefined, seg: Segment): string {
  if (typeof seg === 'number') {
    const length = parent === undefined ? 0 : (parent as unknown[]).length;
    return (length > 0 ? ',' : '') + 'null,'.repeat(seg - length);
  }
  const count = parent === undefined ? 0 : Object.keys(parent).length;
  return `${count > 0 ? ',' : ''}${JSON.stringify(seg)}:`;
}

function checkFit(node: Container, seg: Segment): void {
  if (Array.isArray(node) !== (typeof seg === 'number')) {
    throw new MalformedChunk(
      `jsonPath segment ${JSON.stringify(seg)} does not fit the ${Array.isArray(node) ? 'array' : 'object'} it addresses`,
    );
  }
}

function describePath(segments: Segment[]): string {
  return `$${segments.map((s) => (typeof s === 'number' ? `[${s}]` : `.${s}`)).join('')}`;
}

/* ------------------------------------------------------------------ adapter */

interface StreamingCall {
  call: OpenCall;
  builder: PartialArgsBuilder;
}

/**
 * Map Gemini `streamGenerateContent` responses to toolgate events.
 *
 * @example
 * const adapter = createGeminiAdapter();
 * for await (const chunk of await ai.models.generateContentStream(params))
 *   for (const e of adapter.push(chunk)) store.getState().dispatch(e);
 * for (const e of adapter.end()) store.getState().dispatch(e);
 */
export function createGeminiAdapter(options: GeminiAdapterOptions = {}): ToolStreamAdapter {
  const book = new CallBook('Gemini', options);
  /** The call whose `partialArgs` are arriving, per candidate index. */
  const streaming = new Map<number, StreamingCall>();
  let turnId: string | undefined;
  /** Calls per turn, for derived ids when a `functionCall` has no `id`. */
  let ordinal = 0;

  /** A call's arguments end: completed from the rebuilt object, or, when `why` says they were cut, failed. */
  const finish = (candidate: number, why: string | undefined): void => {
    const open = streaming.get(candidate);
    if (open === undefined) return;
    streaming.delete(candidate);
    book.endArguments(open.call, why === undefined ? 'normal' : 'cut', why ?? '');
  };

  /** A new response began: whatever still streams of the old one was cut. */
  const endResponse = (why: string): void => {
    book.end({ kind: 'finished', why });
    streaming.clear();
  };

  /** Gemini's arguments end from the paths' rebuilt object, not from parsing their text. */
  const streamingCall = (call: OpenCall): StreamingCall => {
    const builder = new PartialArgsBuilder();
    call.endArguments = (how, why) => {
      if (how === 'cut') {
        book.fail(call, `${book.provider}: ${why}; the arguments of ${call.name} are incomplete`);
        return;
      }
      book.delta(call, builder.close());
      book.complete(call, builder.value);
    };
    return { call, builder };
  };

  const newCallId = (fc: Rec, where: string): string => {
    const id = optString(fc, 'id', where);
    ordinal += 1;
    return book.uniqueCallId(id !== undefined && id !== '' ? id : `${turnId}:${ordinal}`);
  };

  const handlePart = (candidate: number, fc: Rec, where: string): void => {
    const name = optString(fc, 'name', where);
    const args = optRecord(fc, 'args', where);
    const rawPartials = optArray(fc, 'partialArgs', where);
    const partials = (rawPartials ?? [])
      .map((p, i) => readPartialArg(p, `${where}.partialArgs[${i}]`))
      .filter((p): p is PartialArg => p !== undefined);
    const willContinue = fc.willContinue === true;

    if (name !== undefined && name !== '') {
      // A new call while another streams: the other's terminal part never came, but the
      // model moved on, so what it sent is what it meant.
      finish(candidate, undefined);
      const call = book.start(newCallId(fc, where), name, turnId!);
      if (!willContinue && partials.length === 0) {
        // Whole call (gemini-25-flash-parallel-whole-args): no text to stream.
        book.complete(call, args ?? {});
        return;
      }
      const open = streamingCall(call);
      streaming.set(candidate, open);
      for (const p of partials) book.delta(call, open.builder.apply(p));
      if (!willContinue) finish(candidate, undefined);
      return;
    }

    const open = streaming.get(candidate);
    if (open === undefined) {
      if (partials.length > 0) throw new MalformedChunk(`${where} has partialArgs but no call is streaming`, 'unknown-call');
      return; // a stray terminal `functionCall: {}`
    }
    for (const p of partials) book.delta(open.call, open.builder.apply(p));
    // No willContinue: this part ends the call. In gemini-partialargs-array-missing-terminal
    // it is the last partialArgs part itself; the `functionCall: {}` never comes.
    if (!willContinue) finish(candidate, undefined);
  };

  const handle = (chunk: Rec): void => {
    const error = chunk.error;
    if (isRecord(error)) {
      const message = typeof error.message === 'string' ? error.message : 'unknown error';
      const current = turnId;
      book.end({ kind: 'error', message }, (call) => call.turnId === current);
      streaming.clear();
      return;
    }
    const candidates = optArray(chunk, 'candidates', 'chunk');
    if (candidates === undefined) return;
    const responseId = optString(chunk, 'responseId', 'chunk');
    if (turnId === undefined || (responseId !== undefined && responseId !== '' && responseId !== turnId)) {
      // A new response on the same stream: whatever still streams of the old one was cut.
      if (turnId !== undefined) endResponse('a new response started before the call ended');
      turnId = responseId !== undefined && responseId !== '' ? responseId : book.fallbackTurnId();
      ordinal = 0;
    }
    candidates.forEach((raw, position) => {
      const where = `candidates[${position}]`;
      if (!isRecord(raw)) throw new MalformedChunk(`${where} is not an object`);
      const candidate = optNumber(raw, 'index', where) ?? position;
      const content = optRecord(raw, 'content', where);
      const parts = content ? optArray(content, 'parts', `${where}.content`) : undefined;
      (parts ?? []).forEach((part, i) => {
        const partWhere = `${where}.content.parts[${i}]`;
        if (!isRecord(part)) throw new MalformedChunk(`${partWhere} is not an object`);
        const fc = optRecord(part, 'functionCall', partWhere);
        if (fc !== undefined) handlePart(candidate, fc, `${partWhere}.functionCall`);
      });
      const finishReason = optString(raw, 'finishReason', where);
      if (finishReason !== undefined) {
        // STOP ends a call whose terminal part is missing; a cut (MAX_TOKENS) or a block
        // (SAFETY, MALFORMED_FUNCTION_CALL, …) fails it.
        const ok = finishReason === 'STOP' || finishReason === 'FINISH_REASON_UNSPECIFIED';
        finish(candidate, ok ? undefined : `the response finished with ${finishReason}`);
      }
    });
  };

  // The model said more would come (willContinue) and the stream ended instead.
  return defineAdapter(book, handle, { why: 'the stream ended while the call still expected more arguments' });
}
