/**
 * The book of calls every adapter writes its events through, and the one vocabulary for how a
 * call's life on a provider stream ends.
 *
 * A call is `start`, its argument text (`arguments-delta`), then the end of its arguments:
 * `arguments-complete` (the call is issued) or `failed`. Where the stream also carries the
 * call's outcome (a provider-hosted tool, the AI SDK's tool outputs, AG-UI results) that
 * follows as `progress`, then `settled` or `cancelled`. Running a tool is never the book's job.
 *
 * How calls end, in the same words in every adapter:
 * - `endArguments(call, how, why)`: the call's own end marker (Anthropic `content_block_stop`,
 *   Cohere `tool-call-end`, OpenAI's `finish_reason` for its choice). `how` is `normal` when the
 *   provider said the arguments are done (an empty text then means no arguments, `{}`), `cut`
 *   when something else ended them (text that is not complete JSON fails the call with `why`).
 * - `end(ending)` at a boundary, for every open call (or those `scope` picks):
 *   - `finished`: the message, response, step or choice finished: open arguments end (`cut`
 *     unless `normal`);
 *   - `error`: the stream reported an error: open arguments fail with its message, and issued
 *     calls are cancelled, since their response broke off (adapters scope it to that response,
 *     so calls of earlier responses on the same stream keep what they showed);
 *   - `aborted`: the stream was stopped (the user's stop, a cancelled response): every call
 *     not over is cancelled;
 *   - `ended`: the stream itself is over (`end()`): open arguments end `cut`, and calls whose
 *     outcome was to come on this stream are cancelled. Calls issued to someone else (the page
 *     runs client tools) stay issued: their outcome comes from elsewhere.
 */
import type { ToolLocation, ToolStreamEvent, ToolStreamStartEvent } from '../core/wire';
import { isRecord, type AdapterIssue } from './chunk-fields';

/** Where a call is: its arguments still arriving, issued (arguments complete), or over. */
export type CallStage = 'arguments' | 'issued' | 'over';

/** How arguments end: the provider's own end marker (`normal`), or something else ended them (`cut`). */
export type ArgumentsEnd = 'normal' | 'cut';

/** A call the adapter started and that is not over yet. */
export interface OpenCall {
  readonly callId: string;
  readonly name: string;
  readonly turnId: string;
  /** The argument JSON text received so far. */
  text: string;
  stage: CallStage;
  /** The stream carries this call's outcome (a provider-hosted tool): `ended` cancels it when none came. */
  readonly awaitsOutcome: boolean;
  /**
   * The whole input the provider gave when the call started (Anthropic's `content_block_start`
   * input, present when no fragments follow); used when no text streamed.
   */
  readonly wholeInput: unknown;
  /** The final arguments, once complete (`arguments-complete`'s value). */
  arguments?: unknown;
  /** An adapter's own way to end these arguments (Gemini rebuilds them from paths); ends the call itself. */
  endArguments?: (how: ArgumentsEnd, why: string) => void;
}

/** A boundary that ends the open calls; see the module comment for what each kind does. */
export type Ending =
  | { kind: 'finished'; why: string; normal?: boolean }
  | { kind: 'error'; message: string }
  | { kind: 'aborted' }
  | { kind: 'ended'; why: string };

export type ArgumentsParse = { ok: true; value: unknown } | { ok: false; reason: string };

/**
 * Parse a call's complete argument text. `emptyIsNoArguments`: a provider that said the
 * arguments are complete and sent no text at all means "no arguments" (Anthropic sends a
 * single `partial_json: ""` for a parameterless tool; the recording
 * anthropic-tool-no-args-empty shows it), so that reads as `{}`.
 */
export function parseArguments(text: string, emptyIsNoArguments: boolean): ArgumentsParse {
  if (text.trim() === '') {
    return emptyIsNoArguments ? { ok: true, value: {} } : { ok: false, reason: 'no argument text arrived' };
  }
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch (error) {
    return { ok: false, reason: `the argument text is not complete JSON (${(error as Error).message})` };
  }
}

/** What the adapter options give the book. */
export interface BookOptions {
  turnId?: string | undefined;
  onError?: ((reason: string, detail: unknown, code: AdapterIssue) => void) | undefined;
  label?: string | undefined;
}

/** What a call's start may say besides its id, name and turn. */
export interface StartExtra {
  location?: ToolLocation;
  /** See {@link OpenCall.awaitsOutcome}; default false: only an adapter that maps the outcome says so. */
  awaitsOutcome?: boolean;
  wholeInput?: unknown;
  /** The call inside which a sub-agent made this one. */
  parentCallId?: string;
}

/**
 * Where an adapter writes its events. One per adapter; `drain()` hands out what one `push`
 * or `end` produced.
 */
export class CallBook {
  private events: ToolStreamEvent[] = [];
  /** Every call id handed out, so two calls never share one (the reducer keys on it). */
  private readonly used = new Set<string>();
  /** Calls not over, in the order they started. */
  private readonly open = new Map<string, OpenCall>();
  private turnCounter = 0;

  readonly provider: string;

  constructor(
    provider: string,
    private readonly options: BookOptions,
  ) {
    this.provider = options.label ?? provider;
  }

  drain(): ToolStreamEvent[] {
    const out = this.events;
    this.events = [];
    return out;
  }

  report(reason: string, chunk: unknown, code: AdapterIssue): void {
    this.options.onError?.(`${this.provider}: ${reason}`, chunk, code);
  }

  /**
   * The turn id when the provider gives none: the `turnId` option, else a generated one.
   * Each call of this function (one per response boundary) gives a fresh id when generated,
   * so calls of consecutive responses stay apart.
   */
  fallbackTurnId(): string {
    if (this.options.turnId !== undefined) return this.options.turnId;
    this.turnCounter += 1;
    return `${this.provider.toLowerCase().replace(/[^a-z0-9]+/g, '-')}-turn-${this.turnCounter}`;
  }

  /**
   * A call id that no earlier call of this adapter used. Providers that number calls per
   * response (Kimi's `functions.add:0`) or adapters that derive ids could repeat one across
   * consecutive responses; the later call gets a `#2`, `#3` suffix.
   */
  uniqueCallId(wanted: string): string {
    let id = wanted;
    for (let n = 2; this.used.has(id); n++) id = `${wanted}#${n}`;
    this.used.add(id);
    return id;
  }

  start(callId: string, name: string, turnId: string, extra: StartExtra = {}): OpenCall {
    const event: ToolStreamStartEvent = { type: 'tool.stream', phase: 'start', callId, turnId, name };
    if (extra.location !== undefined) event.location = extra.location;
    if (extra.parentCallId !== undefined) event.parentCallId = extra.parentCallId;
    this.events.push(event);
    const call: OpenCall = {
      callId,
      name,
      turnId,
      text: '',
      stage: 'arguments',
      awaitsOutcome: extra.awaitsOutcome ?? false,
      wholeInput: extra.wholeInput,
    };
    this.open.set(callId, call);
    return call;
  }

  /** Empty fragments (OpenAI's first `arguments: ""`, Anthropic's first `partial_json: ""`) say nothing. */
  delta(call: OpenCall, text: string): void {
    if (text === '' || call.stage !== 'arguments') return;
    call.text += text;
    this.events.push({ type: 'tool.stream', phase: 'arguments-delta', callId: call.callId, delta: text });
  }

  /** The arguments are complete with the provider's own value: the call is issued. */
  complete(call: OpenCall, value: unknown): void {
    if (call.stage !== 'arguments') return;
    call.stage = 'issued';
    call.arguments = value;
    this.events.push({ type: 'tool.stream', phase: 'arguments-complete', callId: call.callId, arguments: value });
  }

  /** The model stopped before the arguments were whole: the call is over. */
  fail(call: OpenCall, message: string): void {
    if (call.stage !== 'arguments') return;
    this.over(call);
    this.events.push({ type: 'tool.stream', phase: 'failed', callId: call.callId, message });
  }

  /** The call's outcome, where the stream carries it (after its arguments). */
  outcome(call: OpenCall, event: ToolStreamEvent & { phase: 'progress' | 'settled' }): void {
    if (call.stage !== 'issued') return;
    if (event.phase === 'settled') this.over(call);
    this.events.push(event);
  }

  /** Nothing more will come for this call on this stream. */
  cancel(call: OpenCall): void {
    if (call.stage === 'over') return;
    this.over(call);
    this.events.push({ type: 'tool.stream', phase: 'cancelled', callId: call.callId });
  }

  /**
   * End a call's arguments here: with the adapter's own way where it has one; else from the
   * whole input given at the start when no text streamed; else from the text (complete when
   * it is JSON, `failed` with `why` and the parse reason otherwise).
   */
  endArguments(call: OpenCall, how: ArgumentsEnd, why: string): void {
    if (call.stage !== 'arguments') return;
    if (call.endArguments) {
      call.endArguments(how, why);
      return;
    }
    if (call.text === '') {
      // No fragments: the input given at the start is the whole input (the programmatic-tool-calling
      // recording). Where the provider said the arguments are done, an empty text is `{}` (a
      // parameterless tool, recording anthropic-tool-no-args-empty).
      const whole = isRecord(call.wholeInput) ? call.wholeInput : {};
      if (how === 'normal' || Object.keys(whole).length > 0) {
        this.complete(call, whole);
        return;
      }
    }
    const parsed = parseArguments(call.text, how === 'normal');
    if (parsed.ok) this.complete(call, parsed.value);
    else this.fail(call, `${this.provider}: ${why}; the arguments of ${call.name} are incomplete: ${parsed.reason}`);
  }

  /** End the open calls (those `scope` picks) at a boundary; see {@link Ending}. */
  end(ending: Ending, scope?: (call: OpenCall) => boolean): void {
    for (const call of [...this.open.values()]) {
      if (scope !== undefined && !scope(call)) continue;
      switch (ending.kind) {
        case 'finished':
          this.endArguments(call, ending.normal === true ? 'normal' : 'cut', ending.why);
          break;
        case 'error':
          if (call.stage === 'arguments') this.fail(call, `${this.provider}: the stream reported an error: ${ending.message}`);
          else this.cancel(call);
          break;
        case 'aborted':
          this.cancel(call);
          break;
        case 'ended':
          this.endArguments(call, 'cut', ending.why);
          if (call.stage === 'issued' && call.awaitsOutcome) this.cancel(call);
          break;
        default:
          ending satisfies never;
      }
    }
  }

  private over(call: OpenCall): void {
    call.stage = 'over';
    this.open.delete(call.callId);
  }
}
