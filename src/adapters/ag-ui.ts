/**
 * AG-UI events (the Agent User Interaction Protocol, 1.0: CopilotKit, Mastra, LangGraph, Pydantic
 * AI and others speak it), from `@ag-ui/client`'s subscribers or straight from the SSE stream.
 *
 * A call is `TOOL_CALL_START` (toolCallId, toolCallName), `TOOL_CALL_ARGS` fragments (`delta`),
 * `TOOL_CALL_END`; or the shorthand `TOOL_CALL_CHUNK`s, which continue the call they opened until
 * another event arrives. Its result is `TOOL_CALL_RESULT`, possibly in a later run (after an
 * interrupt, or after the page answered a frontend tool). `RUN_STARTED`'s `runId` is the turn.
 * A call made inside a sub-agent (`subagentRunId`) has the call that started the sub-agent
 * (`SUBAGENT_STARTED.parentToolCallId`) as its parent.
 */
import { defineAdapter, type AdapterOptions, type ToolStreamAdapter } from './base';
import { CallBook, type OpenCall } from './call-book';
import { jsonOrText, MalformedChunk, optRecord, optString, reqString, unknownCall, type Rec } from './chunk-fields';
import { AGUI_EVENTS } from './vocabularies';

/**
 * Options of {@link createAGUIAdapter}: those of every adapter.
 *
 * @example
 * const adapter = createAGUIAdapter({ onError: (reason) => console.warn(reason) } satisfies AGUIAdapterOptions);
 */
export type AGUIAdapterOptions = AdapterOptions;

/**
 * Map AG-UI events to toolgate events.
 *
 * @example
 * const adapter = createAGUIAdapter();
 * agent.subscribe({ onEvent: ({ event }) => { for (const e of adapter.push(event)) store.getState().dispatch(e); } });
 */
export function createAGUIAdapter(options: AGUIAdapterOptions = {}): ToolStreamAdapter {
  const book = new CallBook('AG-UI', options);
  const mapper = createAGUIEventMapper(book);
  return defineAdapter(book, mapper.handle, { why: "the stream ended before the call's arguments did", finish: mapper.endChunked }, AGUI_EVENTS);
}

/** The sub-agent invocations seen: the call that started each, and the invocation that started it. */
interface Subagent {
  parentToolCallId: string | undefined;
  parentSubagentRunId: string | undefined;
}

/**
 * The event handler behind {@link createAGUIAdapter}, also used by the `toolgate/ag-ui` bridge,
 * which feeds one agent's runs through one book and learns each run's outcome itself.
 */
export interface AGUIEventMapper {
  handle(event: Rec): void;
  /** The call the agent knows as `toolCallId`. */
  call(toolCallId: string): OpenCall | undefined;
  /** End a call opened by `TOOL_CALL_CHUNK`s (the stream moved on). */
  endChunked(): void;
}

export interface AGUIEventMapperOptions {
  /** Calls handed to someone else (the page runs them, a person reviews them): a run's end leaves them. */
  keep?: (call: OpenCall) => boolean;
}

export function createAGUIEventMapper(book: CallBook, options: AGUIEventMapperOptions = {}): AGUIEventMapper {
  const keep = options.keep ?? (() => false);
  const calls = new Map<string, OpenCall>();
  /** The sub-agent each call was made in. */
  const subagentOf = new Map<OpenCall, string>();
  const subagents = new Map<string, Subagent>();
  let turnId: string | undefined;
  /** The call `TOOL_CALL_CHUNK`s without an id continue. */
  let chunked: OpenCall | undefined;

  const turn = (): string => (turnId ??= book.fallbackTurnId());

  /** The call a sub-agent's calls nest under: the call that started it, or that of the invocation that started it. */
  const parentOf = (subagentRunId: string | undefined): string | undefined => {
    for (let id = subagentRunId, depth = 0; id !== undefined && depth < 64; depth++) {
      const subagent = subagents.get(id);
      if (subagent === undefined) return undefined;
      const parent = subagent.parentToolCallId === undefined ? undefined : calls.get(subagent.parentToolCallId);
      if (parent !== undefined) return parent.callId;
      id = subagent.parentSubagentRunId;
    }
    return undefined;
  };

  const start = (event: Rec, where: string, idKey: 'toolCallId', nameKey: 'toolCallName'): OpenCall => {
    const id = reqString(event, idKey, where);
    const name = reqString(event, nameKey, where);
    if (calls.has(id)) throw new MalformedChunk(`${where} for tool call ${id}, which already started`);
    const subagentRunId = optString(event, 'subagentRunId', where);
    const parentCallId = parentOf(subagentRunId);
    const call = book.start(book.uniqueCallId(id), name, turn(), parentCallId === undefined ? {} : { parentCallId });
    calls.set(id, call);
    if (subagentRunId !== undefined) subagentOf.set(call, subagentRunId);
    return call;
  };

  const known = (event: Rec, where: string): OpenCall => {
    const id = reqString(event, 'toolCallId', where);
    const call = calls.get(id);
    if (call === undefined) throw unknownCall(where, id);
    return call;
  };

  const endChunked = (): void => {
    if (chunked === undefined) return;
    book.endArguments(chunked, 'normal', 'the call ended');
    chunked = undefined;
  };

  /** `TOOL_CALL_CHUNK`: opens a call (with its id and name) or continues the open one. */
  const onChunk = (event: Rec): void => {
    const where = 'TOOL_CALL_CHUNK';
    const id = optString(event, 'toolCallId', where);
    const delta = optString(event, 'delta', where);
    if (id !== undefined && (chunked === undefined || calls.get(id) !== chunked)) {
      endChunked();
      chunked = start(event, where, 'toolCallId', 'toolCallName');
    }
    if (chunked === undefined) throw new MalformedChunk(`${where} without a toolCallId, and no chunked call is open`);
    if (delta !== undefined) book.delta(chunked, delta);
  };

  const inSubagent = (subagentRunId: string) => (call: OpenCall) => subagentOf.get(call) === subagentRunId && !keep(call);

  const onRunFinished = (event: Rec, type: string): void => {
    const outcome = optRecord(event, 'outcome', type);
    const kind = outcome === undefined ? 'success' : optString(outcome, 'type', `${type}.outcome`);
    if (kind === 'cancelled') {
      book.end({ kind: 'aborted' }, (call) => !keep(call));
      return;
    }
    // Success or interrupt: calls left for the page (frontend tools) or waiting for an answer
    // (an approval) stay issued; arguments still open end here.
    book.end({ kind: 'finished', why: "the run finished before the call's arguments ended" }, (call) => !keep(call));
  };

  const handle = (event: Rec): void => {
    const type = event.type;
    if (typeof type !== 'string') return;
    if (type !== 'TOOL_CALL_CHUNK') endChunked();
    switch (type) {
      case 'RUN_STARTED': {
        const runId = optString(event, 'runId', type);
        turnId = runId !== undefined && runId !== '' ? runId : book.fallbackTurnId();
        return;
      }
      case 'TOOL_CALL_START':
        start(event, type, 'toolCallId', 'toolCallName');
        return;
      case 'TOOL_CALL_CHUNK':
        onChunk(event);
        return;
      case 'TOOL_CALL_ARGS': {
        const delta = reqString(event, 'delta', type);
        const call = known(event, type);
        if (call.stage !== 'arguments') throw new MalformedChunk(`TOOL_CALL_ARGS for ${call.callId} after its arguments ended`);
        book.delta(call, delta);
        return;
      }
      case 'TOOL_CALL_END':
        book.endArguments(known(event, type), 'normal', 'the call ended');
        return;
      case 'TOOL_CALL_RESULT': {
        const call = known(event, type);
        if (call.stage === 'over') return;
        book.endArguments(call, 'cut', 'the result arrived');
        // The content is the tool message's: text (usually JSON, shown as the value it holds) or parts.
        book.outcome(call, { type: 'tool.stream', phase: 'settled', callId: call.callId, ok: true, output: jsonOrText(event.content) });
        return;
      }
      case 'RUN_FINISHED':
        onRunFinished(event, type);
        return;
      case 'RUN_ERROR':
        book.end({ kind: 'error', message: optString(event, 'message', type) ?? 'unknown error' }, (call) => !keep(call));
        return;
      case 'SUBAGENT_STARTED': {
        const id = reqString(event, 'subagentRunId', type);
        subagents.set(id, {
          parentToolCallId: optString(event, 'parentToolCallId', type),
          parentSubagentRunId: optString(event, 'parentSubagentRunId', type),
        });
        return;
      }
      case 'SUBAGENT_FINISHED': {
        const id = reqString(event, 'subagentRunId', type);
        const outcome = optRecord(event, 'outcome', type);
        // A suspended sub-agent waits for an answer: its calls stay as they are.
        if (outcome !== undefined && optString(outcome, 'type', `${type}.outcome`) === 'suspended') return;
        book.end({ kind: 'finished', why: "the sub-agent finished before the call's arguments ended" }, inSubagent(id));
        return;
      }
      case 'SUBAGENT_ERROR': {
        const id = reqString(event, 'subagentRunId', type);
        book.end({ kind: 'error', message: optString(event, 'message', type) ?? 'unknown error' }, inSubagent(id));
        return;
      }
      default:
        return; // text, reasoning, state, activity, custom and raw events: not calls
    }
  };

  return { handle, call: (toolCallId) => calls.get(toolCallId), endChunked };
}
