// @vitest-environment node
// toolgate/otel: spans named and attributed after the GenAI semantic conventions, with the
// approval's attributes, read through the SDK's in-memory exporter.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SpanStatusCode } from '@opentelemetry/api';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { createToolgate } from 'toolgate/core';
import { createAuditLog } from 'toolgate/audit';
import { createScriptedSession } from 'toolgate/testing';
import { instrumentToolgate, TOOLGATE_SPAN_ATTRIBUTES as A } from 'toolgate/otel';

const exporter = new InMemorySpanExporter();
const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
const tracer = provider.getTracer('toolgate-test');
afterEach(() => exporter.reset());

const start = (callId: string, name: string, extra: Record<string, unknown> = {}) => ({ type: 'tool.stream', phase: 'start', callId, turnId: 't1', name, ...extra });
const complete = (callId: string, args: unknown) => ({ type: 'tool.stream', phase: 'arguments-complete', callId, arguments: args });
const settled = (callId: string, fields: Record<string, unknown>) => ({ type: 'tool.stream', phase: 'settled', callId, ...fields });
const request = (requestId: string, callId: string, name: string) => ({ type: 'tool.approval-request', requestId, callId, turnId: 't1', name, arguments: { to: 'ada' }, risk: 'medium', effect: 'write' });

function setUp(withAudit = true) {
  const client = createToolgate(withAudit ? { audit: createAuditLog() } : {});
  const session = createScriptedSession();
  client.connect(session);
  const stop = instrumentToolgate(client, { tracer });
  const spans = () => exporter.getFinishedSpans();
  const reviewing = (callId: string) => vi.waitFor(() => expect(client.approvals.getState().current).toMatchObject({ callId, status: 'reviewing' }));
  return { client, session, stop, spans, reviewing };
}

describe('instrumentToolgate', () => {
  it('makes one execute_tool span per call, named and attributed after the GenAI conventions', () => {
    const { session, spans } = setUp(false);
    session.emit(start('c1', 'search_docs', { location: 'server', risk: 'low' }));
    session.emit(complete('c1', { query: 'keys' }));
    expect(spans()).toHaveLength(0);
    session.emit(settled('c1', { ok: true }));
    expect(spans()).toHaveLength(1);
    const [span] = spans();
    expect(span!.name).toBe('execute_tool search_docs');
    expect(span!.attributes).toMatchObject({
      'gen_ai.operation.name': 'execute_tool',
      'gen_ai.tool.name': 'search_docs',
      'gen_ai.tool.call.id': 'c1',
      [A.location]: 'server',
      [A.risk]: 'low',
      [A.status]: 'settled',
    });
    expect(span!.attributes['error.type']).toBeUndefined();
    expect(span!.status.code).toBe(SpanStatusCode.UNSET);
  });

  it('marks a failed result with error.type and an error status', () => {
    const { session, spans } = setUp(false);
    session.emit(start('c1', 'search_docs'));
    session.emit(complete('c1', {}));
    session.emit(settled('c1', { ok: false, code: 'INVALID', message: 'query is empty' }));
    expect(spans()[0]!.attributes['error.type']).toBe('INVALID');
    expect(spans()[0]!.status).toMatchObject({ code: SpanStatusCode.ERROR, message: 'query is empty' });
  });

  it('carries the approval: a person’s approve, and a deny with its reason', async () => {
    const { session, client, spans, reviewing } = setUp();
    session.emit(start('c1', 'send_money'));
    session.emit(complete('c1', { to: 'ada' }));
    session.emit(request('r1', 'c1', 'send_money'));
    await reviewing('c1');
    client.approvals.approve();
    session.emit(start('c2', 'send_money'));
    session.emit(complete('c2', { to: 'ada' }));
    session.emit(request('r2', 'c2', 'send_money'));
    await reviewing('c2');
    client.approvals.deny('too much');
    await client.audit!.idle();
    await vi.waitFor(() => expect(client.audit!.getState().records.filter((r) => r.type === 'decided')).toHaveLength(2));
    session.emit(settled('c1', { ok: true }));
    session.emit(settled('c2', { ok: false, code: 'REJECTED', message: 'too much' }));
    const byCall = Object.fromEntries(spans().map((s) => [s.attributes['gen_ai.tool.call.id'], s.attributes]));
    expect(byCall.c1).toMatchObject({ [A.approvalDecision]: 'approve', [A.approvalBy]: 'person' });
    expect(byCall.c2).toMatchObject({ [A.approvalDecision]: 'deny', [A.approvalBy]: 'person', [A.approvalReason]: 'too much', 'error.type': 'REJECTED' });
  });

  it('names the standing grant that answered as the rule, decided by grant', async () => {
    const { session, client, spans, reviewing } = setUp();
    session.emit(start('c1', 'send_money'));
    session.emit(complete('c1', { to: 'ada' }));
    session.emit(request('r1', 'c1', 'send_money'));
    await reviewing('c1');
    client.approvals.allowForSession();
    session.emit(start('c2', 'send_money'));
    session.emit(complete('c2', { to: 'ada' }));
    session.emit(request('r2', 'c2', 'send_money'));
    await vi.waitFor(() => expect(client.calls.getState().calls.c2?.approval).toBe('approved'));
    session.emit(settled('c1', { ok: true }));
    session.emit(settled('c2', { ok: true }));
    const grant = client.approvals.grants.getState().grants[0]!.id;
    const c2 = spans().find((s) => s.attributes['gen_ai.tool.call.id'] === 'c2')!;
    expect(c2.attributes).toMatchObject({ [A.approvalDecision]: 'approve', [A.approvalBy]: 'grant', [A.approvalRuleId]: grant });
  });

  it('marks a person’s answer (respond) and a withdrawal (cancel)', async () => {
    const { session, client, spans, reviewing } = setUp();
    session.emit(start('c1', 'lookup'));
    session.emit(complete('c1', {}));
    session.emit(request('r1', 'c1', 'lookup'));
    await reviewing('c1');
    client.approvals.respond({ found: true });
    session.emit(settled('c1', { ok: true, output: { found: true }, answeredBy: 'person' }));
    session.emit(start('c2', 'lookup'));
    session.emit(complete('c2', {}));
    session.emit(request('r2', 'c2', 'lookup'));
    await reviewing('c2');
    client.approvals.cancel();
    session.emit({ type: 'tool.stream', phase: 'cancelled', callId: 'c2' });
    const byCall = Object.fromEntries(spans().map((s) => [s.attributes['gen_ai.tool.call.id'], s.attributes]));
    expect(byCall.c1).toMatchObject({ [A.approvalDecision]: 'respond', [A.answeredBy]: 'person', [A.status]: 'settled' });
    expect(byCall.c2).toMatchObject({ [A.approvalDecision]: 'cancel', [A.status]: 'cancelled' });
    expect(byCall.c2!['error.type']).toBeUndefined();
  });

  it('ends the open spans when the session closes, and makes none after stop', () => {
    const { session, spans, stop } = setUp(false);
    session.emit(start('c1', 'search_docs'));
    session.emit({ type: 'closed' });
    expect(spans().map((s) => s.attributes[A.status])).toEqual(['dropped']);
    stop();
    session.emit(start('c2', 'search_docs'));
    expect(spans()).toHaveLength(1);
  });

  it('tells onError when the tracer throws, and the calls go on', () => {
    const client = createToolgate();
    const session = createScriptedSession();
    client.connect(session);
    const onError = vi.fn();
    const broken = { startSpan: () => { throw new Error('exporter down'); }, startActiveSpan: () => { throw new Error('exporter down'); } };
    instrumentToolgate(client, { tracer: broken as never, onError });
    session.emit(start('c1', 'search_docs'));
    expect(client.calls.getState().order).toEqual(['c1']);
    expect(onError).toHaveBeenCalledWith(expect.stringContaining('tracer threw'), expect.any(Error));
  });
});
