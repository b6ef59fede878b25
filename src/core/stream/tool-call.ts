/**
 * One tool call as the state shows it, and the bridge between immutable call objects and the
 * stateful incremental parser (docs/architecture.md, "Snapshots and the parser").
 *
 * A call object never changes. What a stream appends goes into structures shared along one
 * line of call objects, each object remembering how far it reaches:
 * - the argument text is a shared list of fragments (concatenating fragment by fragment would
 *   build a rope of one node per fragment, costly to collect), joined when read;
 * - the parser belongs to the newest call object of the line. Reducing a fragment hands it on;
 *   reducing an older state again finds it owned by someone else and rebuilds a parser from
 *   that call's own text.
 * The preview (`partialArguments`) is built on first read and cached on that object, so nobody
 * pays for fragments nobody looks at, and a call object never shows two different previews.
 */
import { createArgumentsParser, type ArgumentsParser, type ArgumentsPath } from '../json/arguments-parser';
import type { ToolCallStatus } from './call-status';
import type { JsonValue } from '../json/json-value';
import type { ToolApproval } from './local-events';
import type { ToolLocation, ToolRisk } from '../wire';

/**
 * An outcome the server reported after the call had already been cancelled locally.
 *
 * @example
 * if (call.status === 'cancelled' && call.lateOutcome?.ok) note('It finished anyway before the cancel reached it.');
 */
export interface LateOutcome {
  ok: boolean;
  code?: string;
  /** What happened, in words, when the server said. */
  message?: string;
  /** The result, when the runtime sends one (a frozen JSON value). */
  output?: JsonValue;
  at?: number;
}

/**
 * The fields of a call, set by the reducer.
 *
 * @example
 * const summary = ({ name, status, ok }: ToolCallFields) => `${name}: ${status}${ok === false ? ' (error)' : ''}`;
 */
export interface ToolCallFields {
  readonly callId: string;
  readonly name: string;
  /** The turn the call belongs to; a legacy preview may not say. */
  readonly turnId: string | undefined;
  readonly status: ToolCallStatus;
  /** Built from `tool.stream` events, or only from legacy `tool.preview` events. */
  readonly source: 'stream' | 'preview';
  readonly location: ToolLocation | undefined;
  readonly risk: ToolRisk | undefined;
  /** The call inside which a sub-agent made this one, when the start event said. */
  readonly parentCallId: string | undefined;
  /** The final arguments from `arguments-complete` (a frozen JSON value); `undefined` before. */
  readonly arguments: unknown;
  /** Why the argument text is not (or cannot become) valid JSON. */
  readonly argumentsError: string | undefined;
  /**
   * `true` when `arguments-complete` disagreed with the streamed text (compared as canonical JSON,
   * so key order and spacing do not count): the final value is kept, and `onError` said so.
   */
  readonly argumentsMismatch: boolean | undefined;
  /**
   * The path of the first key the argument text wrote twice in one object: the preview showed
   * the first value, the arguments end with the last.
   */
  readonly duplicateKeyPath: ArgumentsPath | undefined;
  /** The latest progress (a frozen JSON value): application data, render it but never trust its shape. */
  readonly progress: unknown;
  /** The latest output (a frozen JSON value): preliminary while the call runs, final once settled with one. */
  readonly output: JsonValue | undefined;
  /** `true` while `output` is a preliminary one (from `progress`), not a `settled` event's final one. */
  readonly outputPreliminary: boolean | undefined;
  /** Once settled: whether the call succeeded, and its code. */
  readonly ok: boolean | undefined;
  readonly code: string | undefined;
  /** Once failed: why the model stopped; once settled, the result's message when the server gave one. */
  readonly message: string | undefined;
  /** Where the call stands with a person's approval (set by the page, never by a session); absent when none is involved. */
  readonly approval: ToolApproval | undefined;
  /** What a person approved (or the gate rewrote): what runs, a frozen JSON value. */
  readonly approvedArguments: JsonValue | undefined;
  /** The person edited the arguments before approving them. */
  readonly approvalEdited: boolean | undefined;
  /** The standing grant that answered the approval, when one did. */
  readonly approvalGrant: string | undefined;
  /** Why the approval was denied or expired, when the page said. */
  readonly approvalReason: string | undefined;
  /** `'rule'` when a policy rule answered the approval, with nobody looking at it. */
  readonly approvalBy: 'rule' | undefined;
  /** The id of the rule that answered the approval, when one did. */
  readonly approvalRuleId: string | undefined;
  /** That rule's label, when it has one. */
  readonly approvalRuleLabel: string | undefined;
  /** `'person'`: a person's answer replaced running the tool (its `settled` said so); `output` is theirs. */
  readonly answeredBy: 'person' | undefined;
  /** Who cancelled: the user here (`local`, at once) or the server. */
  readonly cancelledBy: 'local' | 'server' | undefined;
  /** A `settled` that arrived after a local cancel: cancellation cannot undo a committed effect. */
  readonly lateOutcome: LateOutcome | undefined;
  readonly startedAt: number | undefined;
  readonly issuedAt: number | undefined;
  readonly endedAt: number | undefined;
}

/**
 * One call as the UI shows it: the reducer's fields plus its argument text and a live preview. A
 * plain, frozen object (spread, `structuredClone` and `JSON.stringify` keep every field); a new
 * object whenever the call changes.
 *
 * @example
 * const call: ToolCall | undefined = useToolCall('c1');
 * const shown = call?.status === 'issued' ? call.arguments : call?.partialArguments;
 */
export interface ToolCall extends ToolCallFields {
  /** The raw accumulated argument JSON text, fragments in order. */
  readonly argumentsText: string;
  /** Best-effort, frozen value of `argumentsText` for previews (the final arguments once complete). */
  readonly partialArguments: unknown;
  /** The path of the argument being written while the call streams, else `undefined`. */
  readonly writingPath: ArgumentsPath | undefined;
}

/**
 * Every key of a {@link ToolCall}, in the order its plain copy lists them. The type check below
 * holds it equal to the interface, and test/core/tool-call-keys.test.ts holds the record's
 * constructor and its plain copy to it.
 */
export const TOOL_CALL_KEYS = [
  'callId',
  'name',
  'turnId',
  'status',
  'source',
  'location',
  'risk',
  'parentCallId',
  'arguments',
  'argumentsText',
  'partialArguments',
  'writingPath',
  'argumentsError',
  'argumentsMismatch',
  'duplicateKeyPath',
  'progress',
  'output',
  'outputPreliminary',
  'ok',
  'code',
  'message',
  'approval',
  'approvedArguments',
  'approvalEdited',
  'approvalGrant',
  'approvalReason',
  'approvalBy',
  'approvalRuleId',
  'approvalRuleLabel',
  'answeredBy',
  'cancelledBy',
  'lateOutcome',
  'startedAt',
  'issuedAt',
  'endedAt',
] as const satisfies readonly (keyof ToolCall)[];

/** A key of ToolCall missing from the list fails the type check here, by name. */
type UnlistedKey = Exclude<keyof ToolCall, (typeof TOOL_CALL_KEYS)[number]>;
const everyKeyListed: [UnlistedKey] extends [never] ? true : UnlistedKey = true;
void everyKeyListed;

/** What the record builds from its text (getters), not a field it stores. */
type BuiltFromText = 'argumentsText' | 'partialArguments' | 'writingPath';

/**
 * The reducer's fields: the list less what is built from the text. Only tests read the lists
 * (the record's constructor writes the fields out): marked pure so the store's bundle leaves them out.
 */
export const TOOL_CALL_FIELDS = /* @__PURE__ */ TOOL_CALL_KEYS.filter(
  (key): key is Exclude<(typeof TOOL_CALL_KEYS)[number], BuiltFromText> => key !== 'argumentsText' && key !== 'partialArguments' && key !== 'writingPath',
);

/**
 * A call's fields before anything is known: every one `undefined` (the constructor reads each
 * field by name, and an absent one reads `undefined`), set by `createToolCall`'s start.
 */
const NO_FIELDS = Object.freeze({}) as ToolCallFields;

/** Fragments shared by a line of call objects; each object reads the first `count`. */
interface SharedText {
  pieces: string[];
  joined: string;
  joinedCount: number;
}

/** The parser, and which call object may use it (the newest of its line). */
interface ParserSlot {
  parser: ArgumentsParser;
  owner: ToolCallRecord;
}

interface Preview {
  value: unknown;
  path: ArgumentsPath | undefined;
}

const EMPTY_TEXT = (): SharedText => ({ pieces: [], joined: '', joinedCount: 0 });

// The record has every field of ToolCallFields, assigned in its constructor.
interface ToolCallRecord extends ToolCallFields {}

/**
 * The reducer's record of a call: the fields, and the text and preview built lazily from the
 * parser. Readers never see it: `toCall()` gives them a plain, frozen copy, made once per record
 * (so a preview is built only for calls someone reads, and only once).
 */
class ToolCallRecord implements ToolCall {
  #text: SharedText;
  #textCount: number;
  #ownText: string | undefined;
  #slot: ParserSlot | undefined;
  #preview: Preview | undefined;
  #plain: ToolCall | undefined;

  constructor(f: ToolCallFields, text: SharedText, textCount: number, changes?: Partial<ToolCallFields>) {
    // Written out, in the order of TOOL_CALL_FIELDS (test/core/tool-call-keys.test.ts holds them
    // equal): this runs for every event, and static assignments are twice as fast as a loop over
    // the list here. One order gives every call object one shape (fast property access); `f` may
    // be the previous call object itself, so no copy is made.
    const self = this as { -readonly [K in keyof ToolCallFields]: ToolCallFields[K] };
    self.callId = f.callId;
    self.name = f.name;
    self.turnId = f.turnId;
    self.status = f.status;
    self.source = f.source;
    self.location = f.location;
    self.risk = f.risk;
    self.parentCallId = f.parentCallId;
    self.arguments = f.arguments;
    self.argumentsError = f.argumentsError;
    self.argumentsMismatch = f.argumentsMismatch;
    self.duplicateKeyPath = f.duplicateKeyPath;
    self.progress = f.progress;
    self.output = f.output;
    self.outputPreliminary = f.outputPreliminary;
    self.ok = f.ok;
    self.code = f.code;
    self.message = f.message;
    self.approval = f.approval;
    self.approvedArguments = f.approvedArguments;
    self.approvalEdited = f.approvalEdited;
    self.approvalGrant = f.approvalGrant;
    self.approvalReason = f.approvalReason;
    self.approvalBy = f.approvalBy;
    self.approvalRuleId = f.approvalRuleId;
    self.approvalRuleLabel = f.approvalRuleLabel;
    self.answeredBy = f.answeredBy;
    self.cancelledBy = f.cancelledBy;
    self.lateOutcome = f.lateOutcome;
    self.startedAt = f.startedAt;
    self.issuedAt = f.issuedAt;
    self.endedAt = f.endedAt;
    this.#text = text;
    this.#textCount = textCount;
    if (changes !== undefined) Object.assign(this, changes);
  }

  get argumentsText(): string {
    const shared = this.#text;
    const count = this.#textCount;
    if (count >= shared.joinedCount) {
      if (count > shared.joinedCount) {
        shared.joined += shared.pieces.slice(shared.joinedCount, count).join('');
        shared.joinedCount = count;
      }
      return shared.joined;
    }
    // An older call object of a line that has grown since: rare, so built and kept here.
    this.#ownText ??= shared.pieces.slice(0, count).join('');
    return this.#ownText;
  }

  get partialArguments(): unknown {
    return this.#previewOf().value;
  }

  get writingPath(): ArgumentsPath | undefined {
    return this.#previewOf().path;
  }

  /** The call as readers see it: a plain, frozen object with every field, made once. */
  toCall(): ToolCall {
    // Written out in the order of TOOL_CALL_KEYS (test/core/tool-call-keys.test.ts holds them
    // equal): a loop over the list here makes reading calls about twice as slow.
    return (this.#plain ??= Object.freeze({
      callId: this.callId,
      name: this.name,
      turnId: this.turnId,
      status: this.status,
      source: this.source,
      location: this.location,
      risk: this.risk,
      parentCallId: this.parentCallId,
      arguments: this.arguments,
      argumentsText: this.argumentsText,
      partialArguments: this.partialArguments,
      writingPath: this.writingPath,
      argumentsError: this.argumentsError,
      argumentsMismatch: this.argumentsMismatch,
      duplicateKeyPath: this.duplicateKeyPath,
      progress: this.progress,
      output: this.output,
      outputPreliminary: this.outputPreliminary,
      ok: this.ok,
      code: this.code,
      message: this.message,
      approval: this.approval,
      approvedArguments: this.approvedArguments,
      approvalEdited: this.approvalEdited,
      approvalGrant: this.approvalGrant,
      approvalReason: this.approvalReason,
      approvalBy: this.approvalBy,
      approvalRuleId: this.approvalRuleId,
      approvalRuleLabel: this.approvalRuleLabel,
      answeredBy: this.answeredBy,
      cancelledBy: this.cancelledBy,
      lateOutcome: this.lateOutcome,
      startedAt: this.startedAt,
      issuedAt: this.issuedAt,
      endedAt: this.endedAt,
    }));
  }

  /** A new call object with `changes`, sharing this one's text. */
  with(changes: Partial<ToolCallFields>): ToolCallRecord {
    return new ToolCallRecord(this, this.#text, this.#textCount, changes);
  }

  /** A new call object with `delta` appended to its text; it takes over the parser. */
  append(delta: string, changes: Partial<ToolCallFields>): ToolCallRecord {
    const parser = this.#parser();
    parser.append(delta);
    let shared = this.#text;
    if (shared.pieces.length !== this.#textCount) {
      // This object's line has already grown in another direction (an older state reduced again).
      shared = { pieces: shared.pieces.slice(0, this.#textCount), joined: '', joinedCount: 0 };
    }
    shared.pieces.push(delta);
    const next = new ToolCallRecord(this, shared, shared.pieces.length, changes);
    (next as { argumentsError: string | undefined }).argumentsError = parser.error?.reason;
    (next as { duplicateKeyPath: ArgumentsPath | undefined }).duplicateKeyPath = parser.duplicateKeyPath;
    next.#slot = { parser, owner: next };
    this.#slot = undefined;
    return next;
  }

  /** A new call object whose text is `text`, with a fresh parser. */
  replaceText(text: string, changes: Partial<ToolCallFields>): ToolCallRecord {
    const empty = new ToolCallRecord(this, EMPTY_TEXT(), 0);
    return empty.append(text, changes);
  }

  /** Whether the argument text is one whole JSON value. */
  get textIsComplete(): boolean {
    return this.#parser().complete;
  }

  /**
   * End argument streaming: the new call keeps the preview it had, its text is joined into one
   * piece, and the parser is released: once arguments are complete, memory is bounded by the
   * final value and the text.
   */
  settle(changes: Partial<ToolCallFields>): ToolCallRecord {
    const text = this.argumentsText;
    const shared: SharedText = { pieces: text === '' ? [] : [text], joined: text, joinedCount: text === '' ? 0 : 1 };
    const next = new ToolCallRecord(this, shared, shared.pieces.length, changes);
    if (next.arguments === undefined) next.#preview = { value: this.#previewOf().value, path: undefined };
    this.#slot = undefined;
    return next;
  }

  /** The parser whose position is exactly this call's text: its own, or rebuilt. */
  #parser(): ArgumentsParser {
    const slot = this.#slot;
    if (slot !== undefined && slot.owner === this) return slot.parser;
    const parser = createArgumentsParser({ keepText: false });
    parser.append(this.argumentsText);
    this.#slot = { parser, owner: this };
    return parser;
  }

  #previewOf(): Preview {
    if (this.#preview === undefined) {
      if (this.arguments !== undefined) {
        this.#preview = { value: this.arguments, path: undefined };
      } else {
        const parser = this.#parser();
        this.#preview = { value: parser.value, path: this.status === 'streaming' ? parser.path : undefined };
      }
    }
    return this.#preview;
  }
}

/** What a new call is known by; everything else starts empty. */
export type NewToolCall = Pick<ToolCallFields, 'callId' | 'name' | 'turnId' | 'status' | 'source' | 'location' | 'risk' | 'startedAt'> &
  Partial<Pick<ToolCallFields, 'parentCallId'>>;

/** Create a call with no argument text, arguments or outcome yet. */
export function createToolCall(start: NewToolCall): CallRecord {
  return new ToolCallRecord(NO_FIELDS, EMPTY_TEXT(), 0, start);
}

/**
 * A record for a call read from a state made elsewhere (a plain object, such as a JSON copy): its
 * fields, and its text, from which the preview is rebuilt when read.
 */
export function fromToolCall(call: ToolCall): CallRecord {
  const text = typeof call.argumentsText === 'string' ? call.argumentsText : '';
  return new ToolCallRecord(call, { pieces: text === '' ? [] : [text], joined: text, joinedCount: text === '' ? 0 : 1 }, text === '' ? 0 : 1);
}

/** The reducer's record of a call (internal: readers get `toCall()`'s plain copy). */
export type CallRecord = ToolCallRecord;

/** A new call record with `changes` applied; the old one is untouched. */
export const updateToolCall = (call: CallRecord, changes: Partial<ToolCallFields>): CallRecord => call.with(changes);

/** Append argument text; the new record's `argumentsError` tells if the text can never become JSON. */
export const appendArguments = (call: CallRecord, delta: string, changes: Partial<ToolCallFields>): CallRecord => call.append(delta, changes);

/** Replace the argument text (a legacy preview that does not extend the previous text). */
export const resetArguments = (call: CallRecord, text: string, changes: Partial<ToolCallFields>): CallRecord => call.replaceText(text, changes);

/** Whether the call's argument text is one whole JSON value. */
export const argumentsAreComplete = (call: CallRecord): boolean => call.textIsComplete;

/** End argument streaming, keeping the last preview and releasing the parser. */
export const settleArguments = (call: CallRecord, changes: Partial<ToolCallFields>): CallRecord => call.settle(changes);
