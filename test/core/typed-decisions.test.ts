// Typed decisions (docs/protocol.md "Decisions"): respond answers in the tool's place and runs
// nothing; cancel withdraws the request, which is not a rejection; both reach the wire with their
// `decision`, and a signed request's token goes back unchanged.
import { describe, expect, it, vi } from 'vitest';
import { createConfirmationController, createToolStreamStore, type ClientMessage, type JsonValue } from 'toolgate/core';
import { answerToolApprovalRequest, isToolApprovalRequest } from '../../src/core/approval/confirmation-bridges';
import type { ToolApprovalRequestMessage } from '../../src/core/wire';
import { isDeepFrozen, shown } from './confirmation-helpers';

const gateRequest = (overrides: Partial<ToolApprovalRequestMessage> = {}): ToolApprovalRequestMessage => ({
  type: 'tool.approval-request',
  requestId: 'r1',
  callId: 'c1',
  name: 'lookup_customer',
  arguments: { email: 'ada@example.test' },
  risk: 'medium',
  effect: 'read',
  approvalToken: 'tg1.claims.mac',
  ...overrides,
});

describe('respond', () => {
  it('ends the request responded with the frozen answer, and never calls onApprove', async () => {
    const onApprove = vi.fn();
    const confirmations = createConfirmationController();
    const outcome = confirmations.request({ toolName: 'lookup_customer', arguments: { email: 'ada@example.test' }, onApprove });
    const view = await shown(confirmations);
    expect(view.can).toMatchObject({ respond: true, cancel: true });
    const answer = { name: 'Ada', plan: 'pro' };
    expect(confirmations.respond(answer)).toBe(true);
    answer.plan = 'changed later';
    const result = await outcome;
    expect(result).toEqual({ status: 'responded', output: { name: 'Ada', plan: 'pro' } });
    expect(isDeepFrozen((result as { output: JsonValue }).output)).toBe(true);
    expect(onApprove).not.toHaveBeenCalled();
    expect(confirmations.getState().last?.outcome.status).toBe('responded');
    // A second answer changes nothing: the request has left.
    expect(confirmations.respond({ again: true })).toBe(false);
  });

  it('refuses an answer that is not JSON, and the request still waits', async () => {
    const confirmations = createConfirmationController();
    void confirmations.request({ toolName: 'lookup_customer', arguments: {}, onApprove: () => null });
    await shown(confirmations);
    expect(confirmations.respond({ at: new Date() })).toBe(false);
    expect(confirmations.respond(undefined)).toBe(false);
    expect(confirmations.getState().status).toBe('reviewing');
  });

  it('is offered only to a person looking at the request: not to one waiting behind it', async () => {
    const confirmations = createConfirmationController();
    void confirmations.request({ toolName: 'a', arguments: {}, onApprove: () => null, callId: 'c-a' });
    void confirmations.request({ toolName: 'b', arguments: {}, onApprove: () => null, callId: 'c-b' });
    await shown(confirmations);
    expect(confirmations.getState().queue[0]?.can.respond).toBe(false);
    expect(confirmations.respond({ x: 1 }, { callId: 'c-b' })).toBe(false);
    expect(confirmations.respond({ x: 1 }, { callId: 'c-a' })).toBe(true);
  });
});

describe('cancel', () => {
  it('ends the request cancelled (not denied) with its reason, and never calls onDeny or onApprove', async () => {
    const onApprove = vi.fn();
    const onDeny = vi.fn();
    const confirmations = createConfirmationController();
    const outcome = confirmations.request({ toolName: 'deploy', arguments: {}, onApprove, onDeny, callId: 'c9' });
    await shown(confirmations);
    expect(confirmations.cancel('asked by mistake', { callId: 'c9' })).toBe(true);
    expect(await outcome).toEqual({ status: 'cancelled', reason: 'asked by mistake' });
    expect(onDeny).not.toHaveBeenCalled();
    expect(onApprove).not.toHaveBeenCalled();
  });

  it('withdraws a request still waiting behind the shown one, and never one already approved', async () => {
    let finish: (value: unknown) => void = () => {};
    const confirmations = createConfirmationController();
    const first = confirmations.request({ toolName: 'a', arguments: {}, onApprove: () => new Promise((resolve) => (finish = resolve)) });
    const second = confirmations.request({ toolName: 'b', arguments: {}, onApprove: () => null });
    const view = await shown(confirmations);
    expect(confirmations.cancel(undefined, { requestId: confirmations.getState().queue[0]!.id })).toBe(true);
    expect(await second).toEqual({ status: 'cancelled' });
    expect(confirmations.approve({ requestId: view.id })).toBe(true);
    expect(confirmations.cancel(undefined, { requestId: view.id })).toBe(false);
    finish('ran');
    expect(await first).toMatchObject({ status: 'done', output: 'ran' });
  });
});

describe('the gate answers with the decision, and returns the token', () => {
  const answer = async (decide: (confirmations: ReturnType<typeof createConfirmationController>) => void) => {
    const sent: ClientMessage[] = [];
    const store = createToolStreamStore();
    store.getState().dispatch({ type: 'tool.stream', phase: 'start', callId: 'c1', turnId: 't1', name: 'lookup_customer' });
    store.getState().dispatch({ type: 'tool.stream', phase: 'arguments-complete', callId: 'c1', arguments: { email: 'ada@example.test' } });
    const confirmations = createConfirmationController();
    const outcome = answerToolApprovalRequest(confirmations, gateRequest(), (m) => sent.push(m), {
      mark: (mark) => store.getState().markApproval('c1', mark),
    });
    await shown(confirmations);
    decide(confirmations);
    await outcome;
    return { sent, call: store.getState().calls.c1! };
  };

  it('respond: decision respond with the output, approved false, the token back; the call is marked responded', async () => {
    const { sent, call } = await answer((c) => c.respond({ name: 'Ada' }));
    expect(sent).toEqual([
      { type: 'tool.approval', requestId: 'r1', approved: false, decision: 'respond', output: { name: 'Ada' }, toolName: 'lookup_customer', definitionFingerprint: expect.stringMatching(/^[0-9a-f]{64}$/), fingerprint: expect.stringMatching(/^[0-9a-f]{64}$/), approvalToken: 'tg1.claims.mac' },
    ]);
    expect(call.approval).toBe('responded');
  });

  it('cancel: decision cancel, approved false; the call is marked cancelled, not denied', async () => {
    const { sent, call } = await answer((c) => c.cancel('not needed'));
    expect(sent).toEqual([
      { type: 'tool.approval', requestId: 'r1', approved: false, decision: 'cancel', reason: 'not needed', toolName: 'lookup_customer', definitionFingerprint: expect.stringMatching(/^[0-9a-f]{64}$/), fingerprint: expect.stringMatching(/^[0-9a-f]{64}$/), approvalToken: 'tg1.claims.mac' },
    ]);
    expect(call.approval).toBe('cancelled');
  });

  it('approve and deny name their decision too', async () => {
    expect((await answer((c) => c.approve())).sent[0]).toMatchObject({ approved: true, decision: 'approve', approvalToken: 'tg1.claims.mac' });
    expect((await answer((c) => c.deny('no'))).sent[0]).toMatchObject({ approved: false, decision: 'deny', reason: 'no' });
  });

  it('a settled event that says answeredBy person marks the call', () => {
    const store = createToolStreamStore();
    store.getState().dispatch({ type: 'tool.stream', phase: 'start', callId: 'c1', turnId: 't1', name: 'lookup_customer' });
    store.getState().dispatch({ type: 'tool.stream', phase: 'arguments-complete', callId: 'c1', arguments: {} });
    store.getState().dispatch({ type: 'tool.stream', phase: 'settled', callId: 'c1', ok: true, output: { name: 'Ada' }, answeredBy: 'person' });
    expect(store.getState().calls.c1).toMatchObject({ status: 'settled', output: { name: 'Ada' }, answeredBy: 'person' });
  });
});

describe('the output schema of a request', () => {
  it('reaches the view from the gate’s request, so the dialog can build the answer’s form', async () => {
    const confirmations = createConfirmationController();
    const outputSchema = { type: 'object', properties: { status: { type: 'string' } } };
    void answerToolApprovalRequest(confirmations, gateRequest({ outputSchema }), () => {});
    const view = await shown(confirmations);
    expect(view.outputSchema).toEqual(outputSchema);
  });

  it('is none for a request without one, or with one that is not a schema object', async () => {
    const confirmations = createConfirmationController();
    void confirmations.request({ toolName: 'a', arguments: {}, onApprove: () => null, outputSchema: ['not', 'a', 'schema'] as never });
    expect((await shown(confirmations)).outputSchema).toBeUndefined();
  });

  it('refuses a gate request whose outputSchema is not an object, with the reason', () => {
    expect(isToolApprovalRequest(gateRequest({ outputSchema: [] as never }))).toBe(false);
    expect(isToolApprovalRequest(gateRequest({ outputSchema: { type: 'object' } }))).toBe(true);
  });
});
