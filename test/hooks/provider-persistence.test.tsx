/**
 * <ToolgateProvider> and a session kept across a reload: the app-tool host it makes records the
 * calls it runs beside the session (`session.persistence.calls`), so the page that resumes the
 * session answers a call that was running when the page went away FAILED and never runs it again;
 * and the standing grants of its confirmation controller are kept beside the session and come back
 * into the controller of the page that resumes it, before a request sent again can reach it.
 */
import { StrictMode, useEffect } from 'react';
import { act, render, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { ToolgateProvider, useAppToolHost, useConfirmationController, type ConfirmationController } from 'toolgate';
import { createSessionPersistence } from 'toolgate/client';
import { createScriptedSession } from 'toolgate/testing';
import { fakeStorage } from '../fixtures/fake-storage';

const RESUME = { sessionId: 'sess_1', token: 'secret', lastSeq: 0 };

function SendTool({ runs }: { runs: string[] }) {
  const host = useAppToolHost();
  useEffect(
    () =>
      host.register({
        name: 'send',
        run: (_args, { callId }) => {
          runs.push(callId);
          return new Promise(() => {}); // still running when the page goes away
        },
      }),
    [host, runs],
  );
  return null;
}

/** Hands the provider's confirmation controller to the test. */
function ReadController({ into }: { into: { current?: ConfirmationController } }) {
  into.current = useConfirmationController();
  return null;
}

function mount(storage: ReturnType<typeof fakeStorage>, runs: string[], onError?: (reason: string, detail: unknown, code: string) => void) {
  const persistence = createSessionPersistence({ storage });
  // Saved as the session is welcomed (the first time and again after a reload).
  persistence.saveResume(RESUME);
  const session = Object.assign(createScriptedSession(), { persistence });
  const controller: { current?: ConfirmationController } = {};
  render(
    <StrictMode>
      <ToolgateProvider session={session} {...(onError ? { onError } : {})}>
        <SendTool runs={runs} />
        <ReadController into={controller} />
      </ToolgateProvider>
    </StrictMode>,
  );
  return Object.assign(session, { controller: controller.current! });
}

describe('ToolgateProvider with a session kept across a reload', () => {
  it('records the calls its host runs in the session’s storage, and the next page answers a running one FAILED without running it', async () => {
    const storage = fakeStorage();
    const runs: string[] = [];
    const before = mount(storage, runs);
    act(() => void before.callTool({ callId: 'c1', name: 'send', arguments: {} }));
    await waitFor(() => expect(runs).toEqual(['c1']));

    const after = mount(storage.copy(), runs);
    const answer = await act(() => after.callTool({ callId: 'c1', name: 'send', arguments: {} }));
    expect(answer).toEqual({ ok: false, code: 'FAILED', message: 'outcome unknown: the page reloaded while it ran' });
    expect(runs).toEqual(['c1']);
    expect(after.sent.filter((m) => m.type === 'tool.result')).toEqual([
      { type: 'tool.result', callId: 'c1', epoch: 0, result: answer },
    ]);
  });

  it('keeps the standing grants beside the session and gives them back to the confirmation controller of the page that resumes it', async () => {
    const storage = fakeStorage();
    const before = mount(storage, []);
    act(() => {
      before.controller.grants.deny('issue_refund');
      before.controller.grants.allow('search_docs');
    });
    // Each standing grant is kept as its rule.
    expect(JSON.parse(storage.items.get('toolgate:session')!).grants.rules).toEqual([
      expect.objectContaining({ tools: ['issue_refund'], decision: 'deny', origin: 'grant' }),
      expect.objectContaining({ tools: ['search_docs'], decision: 'allow', origin: 'grant' }),
    ]);

    const reloaded = storage.copy();
    const after = mount(reloaded, []);
    expect(after.controller.grants.getState().grants).toEqual(before.controller.grants.getState().grants);
    // The restored deny grant answers the request the server sends again after the reload, by itself.
    act(() =>
      after.emit({ type: 'tool.approval-request', requestId: 'apr_1', callId: 'c9', name: 'issue_refund', arguments: { orderId: 'ord_1' }, risk: 'high', resent: true }),
    );
    // The answer is bound to the request's fingerprint, which takes a digest first: wait for it, not for one tick.
    await waitFor(() =>
      expect(after.sent.filter((m) => m.type === 'tool.approval')).toEqual([
        expect.objectContaining({ type: 'tool.approval', requestId: 'apr_1', approved: false, automatic: true }),
      ]),
    );
    // A revoke on the new page is kept too: a second reload finds one grant.
    act(() => void after.controller.grants.revoke(after.controller.grants.find('search_docs')!.id));
    const third = mount(reloaded.copy(), []);
    expect(third.controller.grants.getState().grants.map((g) => g.toolName)).toEqual(['issue_refund']);
  });

  it('refuses a saved grant that is not well formed through onError, and takes the others', () => {
    const storage = fakeStorage();
    const persistence = createSessionPersistence({ storage });
    persistence.saveResume(RESUME);
    persistence.saveGrants({ version: 1, grants: [{ id: 'g1', toolName: 'search_docs', decision: 'allow', grantedAt: 1 }, { id: 'g2', toolName: 'x', decision: 'maybe', grantedAt: 1 }] });
    const errors: string[] = [];
    const after = mount(storage.copy(), [], (_reason, _detail, code) => errors.push(code));
    expect(after.controller.grants.getState().grants.map((g) => g.id)).toEqual(['g1']);
    expect(errors).toEqual(['invalid-grant']);
  });
});
