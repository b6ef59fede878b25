import { StrictMode, useEffect } from 'react';
import { act, render, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import {
  ToolgateProvider,
  useAppToolHost,
  useConfirmationController,
  useInterrupt,
  useToolgateContext,
  type ToolgateContextValue,
} from 'toolgate';
import { createScriptedSession, toolEvents as e } from 'toolgate/testing';

function Capture({ into }: { into: { value?: ToolgateContextValue; interrupt?: (turnId?: string) => void } }) {
  into.value = useToolgateContext() ?? undefined;
  into.interrupt = useInterrupt();
  return null;
}

function EchoTool() {
  const host = useAppToolHost();
  useEffect(() => host.register({ name: 'echo', run: (args) => args }), [host]);
  return null;
}

describe('ToolgateProvider wiring a session', () => {
  it("runs the server's app-tool calls through the host and answers with tool.result", async () => {
    const session = createScriptedSession();
    render(
      <StrictMode>
        <ToolgateProvider session={session}>
          <EchoTool />
        </ToolgateProvider>
      </StrictMode>,
    );
    const result = await act(() => session.callTool({ callId: 'a1', name: 'echo', arguments: { x: 1 } }));
    expect(result).toEqual({ ok: true, output: { x: 1 } });
    expect(session.sent.filter((m) => m.type === 'tool.result')).toHaveLength(1);
    expect(session.sent.find((m) => m.type === 'hello')).toMatchObject({ tools: [{ name: 'echo' }] });
  });

  it("queues the server's approval requests in the confirmation controller and answers once", async () => {
    const session = createScriptedSession();
    const seen: { value?: ToolgateContextValue } = {};
    function Approver() {
      const confirmations = useConfirmationController();
      seen.value = { confirmations } as ToolgateContextValue;
      return null;
    }
    render(
      <ToolgateProvider session={session}>
        <Approver />
      </ToolgateProvider>,
    );
    act(() =>
      session.emit({ type: 'tool.approval-request', requestId: 'r1', callId: 'c1', name: 'deploy', arguments: { v: 2 }, risk: 'high' }),
    );
    const controller = seen.value?.confirmations;
    await waitFor(() => expect(controller?.getState().current?.status).toBe('reviewing'));
    act(() => {
      controller?.approve();
      controller?.approve();
    });
    const answer = await session.waitForMessage('tool.approval');
    expect(answer).toMatchObject({ requestId: 'r1', approved: true, fingerprint: expect.stringMatching(/^[0-9a-f]{64}$/) });
    expect(session.sent.filter((m) => m.type === 'tool.approval')).toHaveLength(1);
  });

  it('interrupts a turn everywhere at once: the store, the running app tools and the server', async () => {
    const session = createScriptedSession();
    const ctx: { value?: ToolgateContextValue; interrupt?: (turnId?: string) => void } = {};
    let aborted = false;
    function SlowTool() {
      const host = useAppToolHost();
      useEffect(
        () =>
          host.register({
            name: 'slow',
            run: (_args, { signal }) =>
              new Promise((resolve) => signal.addEventListener('abort', () => ((aborted = true), resolve(null)))),
          }),
        [host],
      );
      return null;
    }
    render(
      <ToolgateProvider session={session}>
        <SlowTool />
        <Capture into={ctx} />
      </ToolgateProvider>,
    );
    act(() => session.emit(e.start('c1', { turnId: 't1', name: 'slow', location: 'app' })));
    const result = session.callTool({ callId: 'c1', turnId: 't1', name: 'slow', arguments: {} });
    await waitFor(() => expect(ctx.value?.host.getState().calls.c1?.status).toBe('running'));
    act(() => ctx.interrupt?.('t1'));
    expect(ctx.value?.store.getState().calls.c1?.status).toBe('cancelled');
    expect(await result).toMatchObject({ ok: false, code: 'INTERRUPTED' });
    expect(aborted).toBe(true);
    expect(session.sent).toContainEqual({ type: 'turn.interrupt', turnId: 't1' });
  });

  it("starts the store in preview mode for a session that lacks tool-stream-v1", () => {
    const session = createScriptedSession({ capabilities: [] });
    const ctx: { value?: ToolgateContextValue } = {};
    render(
      <ToolgateProvider session={session}>
        <Capture into={ctx} />
      </ToolgateProvider>,
    );
    expect(ctx.value?.store.getState().previewMode).toBe('preview');
  });

  it('reports malformed events through onError', () => {
    const session = createScriptedSession();
    const errors: string[] = [];
    render(<ToolgateProvider session={session} onError={(reason) => errors.push(reason)} />);
    act(() => session.emit({ type: 'tool.stream', phase: 'arguments-delta', callId: 'c1', delta: 5 }));
    expect(errors).toEqual(["tool.stream arguments-delta for call 'c1': delta must be a string, got number"]);
  });

  it('reports with one shape, (reason, detail, code): a malformed approval request, and a confirmation listener that throws', async () => {
    const session = createScriptedSession();
    const errors: [string, unknown, string][] = [];
    const ctx: { value?: ToolgateContextValue } = {};
    render(
      <ToolgateProvider session={session} onError={(reason, detail, code) => errors.push([reason, detail, code])}>
        <Capture into={ctx} />
      </ToolgateProvider>,
    );
    const malformed = { type: 'tool.approval-request', requestId: 'r1', name: 'x' };
    act(() => session.emit(malformed));
    expect(errors).toEqual([[expect.stringMatching(/^malformed tool.approval-request/), malformed, 'malformed-approval-request']]);

    const confirmations = ctx.value!.confirmations;
    const thrown = new Error('broken listener');
    confirmations.subscribe(() => {
      throw thrown;
    });
    act(() => void confirmations.request({ toolName: 'a', arguments: {}, onApprove: () => null }).catch(() => undefined));
    await waitFor(() => expect(errors).toContainEqual(['a listener threw: Error: broken listener', thrown, 'listener-threw']));
    act(() => void confirmations.withdrawAll());
  });
});
