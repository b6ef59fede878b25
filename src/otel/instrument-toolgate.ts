/**
 * OpenTelemetry spans for a client's tool calls, named and attributed after the GenAI semantic
 * conventions (`execute_tool {tool}`, `gen_ai.operation.name`, `gen_ai.tool.name`,
 * `gen_ai.tool.call.id`, `error.type`), with the approval's own attributes under `toolgate.approval.*`.
 * It only reads the client (its store and, when there is one, its audit log): it changes nothing,
 * and a tracer that throws never reaches the page's flow. docs/architecture.md "Layers".
 */
import { SpanKind, SpanStatusCode, trace, type Attributes, type Span, type Tracer } from '@opentelemetry/api';
import type { AuditRecord } from '../core/audit';
import type { ToolCall, ToolgateClient } from '../core';

/**
 * The attribute names the spans carry: the GenAI semantic conventions' own, and the kit's approval
 * attributes. Exported so that a query or a test names them once.
 *
 * @example
 * span.attributes[TOOLGATE_SPAN_ATTRIBUTES.approvalDecision] // 'approve'
 */
export const TOOLGATE_SPAN_ATTRIBUTES = Object.freeze({
  operationName: 'gen_ai.operation.name',
  toolName: 'gen_ai.tool.name',
  toolCallId: 'gen_ai.tool.call.id',
  toolType: 'gen_ai.tool.type',
  errorType: 'error.type',
  /** `server` or `app`: where the tool runs. */
  location: 'toolgate.tool.location',
  risk: 'toolgate.tool.risk',
  /** How the call ended: `settled`, `cancelled`, `failed` (or `dropped` when the session closed first). */
  status: 'toolgate.call.status',
  /** `approve`, `deny`, `respond`, `cancel`, `expired` or `refused`. */
  approvalDecision: 'toolgate.approval.decision',
  /** `person`, `grant`, `batch` or `rule`. */
  approvalBy: 'toolgate.approval.by',
  /** The rule (or standing grant) that decided. */
  approvalRuleId: 'toolgate.approval.rule_id',
  approvalReason: 'toolgate.approval.reason',
  approvalEdited: 'toolgate.approval.edited',
  /** `person` when a person's answer replaced running the tool. */
  answeredBy: 'toolgate.answered_by',
} as const);

const A = TOOLGATE_SPAN_ATTRIBUTES;

/**
 * Options of {@link instrumentToolgate}.
 *
 * @example
 * const options: InstrumentToolgateOptions = { tracer: provider.getTracer('my-app') };
 */
export interface InstrumentToolgateOptions {
  /** The tracer spans are made with; `trace.getTracer('toolgate')` (the global provider's) when omitted. */
  tracer?: Tracer | undefined;
  /** Told when the tracer threw (the call's flow goes on). */
  onError?: ((reason: string, detail: unknown) => void) | undefined;
}

/** The decision names the spans use, from a call's approval mark. */
const DECISION_OF: Readonly<Record<string, string>> = Object.freeze({
  approved: 'approve',
  denied: 'deny',
  responded: 'respond',
  cancelled: 'cancel',
  expired: 'expired',
  refused: 'refused',
});

interface Open {
  readonly span: Span;
  last: ToolCall;
  /** Attributes set so far (a span's own attributes cannot be read back through the API). */
  decided: boolean;
}

/**
 * Turn a client's tool calls into OpenTelemetry spans: one `execute_tool {tool}` span per call,
 * from its start to its end, with the approval's decision, who made it and the rule when one did.
 * Returns the function that stops (the spans still open end then, marked `dropped`).
 *
 * @example
 * import { instrumentToolgate } from 'toolgate/otel';
 * const stop = instrumentToolgate(client, { tracer: trace.getTracer('chat-page') });
 * // …
 * stop();
 */
export function instrumentToolgate(client: Pick<ToolgateClient, 'calls' | 'audit'>, options: InstrumentToolgateOptions = {}): () => void {
  const tracer = options.tracer ?? trace.getTracer('toolgate');
  const open = new Map<string, Open>();
  /** Decisions heard from the audit log before their call's span exists (or while it is open). */
  const decisions = new Map<string, Attributes>();
  const guard = (what: string, run: () => void): void => {
    try {
      run();
    } catch (error) {
      try {
        options.onError?.(`the tracer threw while ${what}`, error);
      } catch {
        // Nothing safer is left to tell.
      }
    }
  };

  const decisionAttributes = (call: ToolCall): Attributes | undefined => {
    const decision = call.approval === undefined ? undefined : DECISION_OF[call.approval];
    if (decision === undefined) return undefined;
    return {
      [A.approvalDecision]: decision,
      [A.approvalBy]: call.approvalGrant === undefined ? 'person' : 'grant',
      ...(call.approvalGrant === undefined ? {} : { [A.approvalRuleId]: call.approvalGrant }),
      ...(call.approvalReason === undefined ? {} : { [A.approvalReason]: call.approvalReason }),
      ...(call.approvalEdited === true ? { [A.approvalEdited]: true } : {}),
    };
  };

  const begin = (call: ToolCall): void => {
    guard('starting a span', () => {
      const attributes: Attributes = {
        [A.operationName]: 'execute_tool',
        [A.toolName]: call.name,
        [A.toolCallId]: call.callId,
        [A.toolType]: 'function',
        ...(call.location === undefined ? {} : { [A.location]: call.location }),
        ...(call.risk === undefined ? {} : { [A.risk]: call.risk }),
      };
      const span = tracer.startSpan(`execute_tool ${call.name}`, {
        kind: SpanKind.INTERNAL,
        attributes,
        ...(call.startedAt === undefined ? {} : { startTime: call.startedAt }),
      });
      open.set(call.callId, { span, last: call, decided: false });
    });
    update(call);
  };

  const update = (call: ToolCall): void => {
    const entry = open.get(call.callId);
    if (entry === undefined) return;
    entry.last = call;
    guard('updating a span', () => {
      // The audit log names who decided more exactly (a batch, a rule): it wins over the card's mark.
      const fromLog = decisions.get(call.callId);
      const fromMark = decisionAttributes(call);
      if (fromLog !== undefined) {
        entry.span.setAttributes({ ...fromMark, ...fromLog });
        entry.decided = true;
      } else if (fromMark !== undefined && !entry.decided) {
        entry.span.setAttributes(fromMark);
        if (call.approval !== 'awaiting') entry.decided = true;
      }
      if (call.answeredBy === 'person') entry.span.setAttribute(A.answeredBy, 'person');
      if (call.status === 'settled' || call.status === 'cancelled' || call.status === 'failed') end(entry, call.status);
    });
  };

  const end = (entry: Open, status: 'settled' | 'cancelled' | 'failed' | 'dropped'): void => {
    const call = entry.last;
    open.delete(call.callId);
    decisions.delete(call.callId);
    guard('ending a span', () => {
      entry.span.setAttribute(A.status, status);
      const failure = status === 'failed' ? 'FAILED' : status === 'settled' && call.ok === false ? (call.code ?? 'FAILED') : undefined;
      if (failure !== undefined) {
        entry.span.setAttribute(A.errorType, failure);
        entry.span.setStatus({ code: SpanStatusCode.ERROR, ...(call.message === undefined ? {} : { message: call.message }) });
      }
      entry.span.end(status !== 'dropped' && call.endedAt !== undefined ? call.endedAt : undefined);
    });
  };

  // Only new calls (the order grows) and open ones (few) are looked at per change: a session's
  // thousands of finished calls cost nothing here.
  let seen = 0;
  let seenOrder: readonly string[] = [];
  const sync = (): void => {
    const state = client.calls.getState();
    const order = state.order;
    if (order.length < seen || (seen > 0 && order[seen - 1] !== seenOrder[seen - 1])) {
      // The session closed (its calls were dropped): what was open ends without an outcome.
      for (const entry of [...open.values()]) if (state.calls[entry.last.callId] === undefined) end(entry, 'dropped');
      seen = 0;
    }
    for (const entry of [...open.values()]) {
      const call = state.calls[entry.last.callId];
      if (call === undefined) end(entry, 'dropped');
      else if (call !== entry.last) update(call);
    }
    for (let i = seen; i < order.length; i++) {
      const call = state.calls[order[i] as string];
      if (call !== undefined && !open.has(call.callId)) begin(call);
    }
    seen = order.length;
    seenOrder = order;
  };

  const hear = (record: AuditRecord): void => {
    if (record.type !== 'decided') return;
    decisions.set(record.callId, {
      [A.approvalDecision]: record.kind,
      [A.approvalBy]: record.by,
      ...(record.ruleId === null ? {} : { [A.approvalRuleId]: record.ruleId }),
      ...(record.reason === null ? {} : { [A.approvalReason]: record.reason }),
    });
    const entry = open.get(record.callId);
    if (entry !== undefined) update(entry.last);
  };
  let heard = 0;
  const audit = client.audit;
  const stopAudit =
    audit === undefined
      ? () => {}
      : audit.subscribe(({ records }) => {
          for (; heard < records.length; heard++) hear(records[heard] as AuditRecord);
        });
  if (audit !== undefined) for (const record of audit.getState().records) (heard++, hear(record));

  sync();
  const stopCalls = client.calls.subscribe(sync);
  let stopped = false;
  return () => {
    if (stopped) return;
    stopped = true;
    stopCalls();
    stopAudit();
    for (const entry of [...open.values()]) end(entry, 'dropped');
  };
}
