// Type tests of the wire and the results: checked by `tsc --noEmit` (which `npm test` runs first),
// so a union that stops narrowing fails the run. Nothing here runs.
import { describe, expectTypeOf, it } from 'vitest';
import { TOOL_RESULT_CODES, TOOL_STREAM_PHASES, type ConfirmationOutcome, type JsonValue, type ServerMessage, type ToolCall, type ToolCallStatus, type ToolEvent, type ToolResult, type ToolResultCode, type ToolStreamEvent, type ToolStreamPhase } from 'toolgate/core';
import { type LocalToolEvent } from 'toolgate/testing';
import { validateToolEvent } from '../../src/core/stream/validate-event';

declare const event: ToolEvent;
declare const streamEvent: ToolStreamEvent;
declare const result: ToolResult;

describe('tool events', () => {
  it('narrow by phase to the fields of that phase', () => {
    switch (streamEvent.phase) {
      case 'start':
        expectTypeOf(streamEvent.name).toEqualTypeOf<string>();
        expectTypeOf(streamEvent.turnId).toEqualTypeOf<string>();
        expectTypeOf(streamEvent.location).toEqualTypeOf<'server' | 'app' | undefined>();
        expectTypeOf(streamEvent.risk).toEqualTypeOf<'low' | 'medium' | 'high' | undefined>();
        break;
      case 'arguments-delta':
        expectTypeOf(streamEvent.delta).toEqualTypeOf<string>();
        // @ts-expect-error: a delta carries no final arguments
        void streamEvent.arguments;
        break;
      case 'arguments-complete':
        expectTypeOf(streamEvent.arguments).toBeUnknown();
        break;
      case 'progress':
        expectTypeOf(streamEvent.progress).toBeUnknown();
        break;
      case 'settled':
        expectTypeOf(streamEvent.ok).toEqualTypeOf<boolean>();
        expectTypeOf(streamEvent.code).toEqualTypeOf<string | undefined>();
        // Other runtimes send a result and its message (some agent runtimes' tools send none).
        expectTypeOf(streamEvent.output).toBeUnknown();
        expectTypeOf(streamEvent.message).toEqualTypeOf<string | undefined>();
        break;
      case 'cancelled':
        expectTypeOf(streamEvent).toHaveProperty('callId');
        // @ts-expect-error: only failed has a message
        void streamEvent.message;
        break;
      case 'failed':
        expectTypeOf(streamEvent.message).toEqualTypeOf<string>();
        break;
      default:
        // Exhaustive: every phase is handled above.
        expectTypeOf(streamEvent).toBeNever();
    }
  });

  it('narrow ToolEvent by type first, then by phase', () => {
    if (event.type === 'tool.stream') {
      expectTypeOf(event).toEqualTypeOf<ToolStreamEvent>();
      if (event.phase === 'failed') expectTypeOf(event.message).toEqualTypeOf<string>();
    } else if (event.type === 'tool.preview') {
      expectTypeOf(event.arguments).toBeUnknown();
      expectTypeOf(event.name).toEqualTypeOf<string | undefined>();
    } else {
      expectTypeOf(event.type).toEqualTypeOf<'closed'>();
      expectTypeOf(event.seq).toEqualTypeOf<number | undefined>();
    }
  });

  it('keep the page\'s own events out of the session events', () => {
    // A local interrupt or an approval mark is a LocalToolEvent: no session event has its type.
    expectTypeOf<Extract<ToolEvent, { type: LocalToolEvent['type'] }>>().toBeNever();
    const local = {} as LocalToolEvent;
    if (local.type === 'approval') expectTypeOf(local.mark.approval).toEqualTypeOf<'awaiting' | 'approved' | 'denied' | 'expired' | 'refused' | 'responded' | 'cancelled'>();
    else expectTypeOf(local.turnId).toEqualTypeOf<string | undefined>();
  });

  it('list exactly the phases of the union', () => {
    expectTypeOf<(typeof TOOL_STREAM_PHASES)[number]>().toEqualTypeOf<ToolStreamPhase>();
    expectTypeOf<ToolStreamEvent['phase']>().toEqualTypeOf<ToolStreamPhase>();
  });

  it('narrow server messages by type', () => {
    const message = {} as ServerMessage;
    if (message.type === 'tool.call') {
      expectTypeOf(message.epoch).toEqualTypeOf<number>();
      expectTypeOf(message.arguments).toBeUnknown();
    }
    if (message.type === 'tool.approval-request') {
      expectTypeOf(message.risk).toEqualTypeOf<'low' | 'medium' | 'high'>();
      expectTypeOf(message.effect).toEqualTypeOf<'read' | 'write' | undefined>();
    }
  });

  it('come out of validateToolEvent as a union narrowed by kind', () => {
    const checked = validateToolEvent(JSON.parse('{}'));
    if (checked.kind === 'event') expectTypeOf(checked.event).toEqualTypeOf<ToolEvent>();
    if (checked.kind === 'malformed') expectTypeOf(checked.reason).toEqualTypeOf<string>();
    if (checked.kind === 'other') expectTypeOf(checked.type).toEqualTypeOf<string>();
  });
});

describe('ToolResult', () => {
  it('narrows by ok: output on success, a code (and maybe a message) on failure', () => {
    if (result.ok) {
      expectTypeOf(result.output).toBeUnknown();
      // @ts-expect-error: a success has no code
      void result.code;
    } else {
      expectTypeOf(result.code).toEqualTypeOf<ToolResultCode>();
      expectTypeOf(result.message).toEqualTypeOf<string | undefined>();
      // @ts-expect-error: a failure has no output
      void result.output;
    }
  });

  it('has the five codes of the protocol, and no other', () => {
    expectTypeOf<ToolResultCode>().toEqualTypeOf<'INTERRUPTED' | 'REJECTED' | 'INVALID' | 'TIMEOUT' | 'FAILED'>();
    expectTypeOf<(typeof TOOL_RESULT_CODES)[number]>().toEqualTypeOf<ToolResultCode>();
    // @ts-expect-error: not a code
    const wrong: ToolResult = { ok: false, code: 'DENIED' };
    // @ts-expect-error: a success needs its output (null when the tool returns nothing)
    const missing: ToolResult = { ok: true };
    void wrong;
    void missing;
  });
});

describe('calls and outcomes', () => {
  it('give a call one status from a string union, and read-only fields', () => {
    expectTypeOf<ToolCall['status']>().toEqualTypeOf<ToolCallStatus>();
    expectTypeOf<ToolCallStatus>().toEqualTypeOf<'pending' | 'streaming' | 'issued' | 'settled' | 'cancelled' | 'failed'>();
    expectTypeOf<ToolCall['source']>().toEqualTypeOf<'stream' | 'preview'>();
    const call = {} as ToolCall;
    // @ts-expect-error: a state handed out never changes
    call.status = 'settled';
  });

  it('narrow a confirmation outcome by status', () => {
    const outcome = {} as ConfirmationOutcome;
    switch (outcome.status) {
      case 'done':
        expectTypeOf(outcome.output).toBeUnknown();
        expectTypeOf(outcome.fingerprint).toEqualTypeOf<string>();
        expectTypeOf(outcome.confirmationId).toEqualTypeOf<string | null>();
        break;
      case 'denied':
        expectTypeOf(outcome.reason).toEqualTypeOf<string | undefined>();
        break;
      case 'refused':
      case 'failed':
      case 'uncertain':
        expectTypeOf(outcome.reason).toEqualTypeOf<string>();
        // @ts-expect-error: only done carries output
        void outcome.output;
        break;
      case 'expired':
        expectTypeOf(outcome).toEqualTypeOf<{ readonly status: 'expired' }>();
        break;
      case 'responded':
        expectTypeOf(outcome.output).toEqualTypeOf<JsonValue>();
        break;
      case 'cancelled':
        expectTypeOf(outcome.reason).toEqualTypeOf<string | undefined>();
        break;
      default:
        expectTypeOf(outcome).toBeNever();
    }
  });
});
