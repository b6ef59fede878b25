/**
 * <ToolgateProvider> and a session kept across a reload: the app-tool host it makes records the
 * calls it runs beside the session (`session.persistence.calls`), so the page that resumes the
 * session answers a call that was running when the page went away FAILED and never runs it again.
 */
import { StrictMode, useEffect } from 'react';
import { act, render } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { ToolgateProvider, createSessionPersistence, useAppToolHost } from 'toolgate';
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

function mount(storage: ReturnType<typeof fakeStorage>, runs: string[]) {
  const persistence = createSessionPersistence({ storage });
  persistence.saveResume(RESUME);
  const session = Object.assign(createScriptedSession(), { persistence });
  render(
    <StrictMode>
      <ToolgateProvider session={session}>
        <SendTool runs={runs} />
      </ToolgateProvider>
    </StrictMode>,
  );
  return session;
}

describe('ToolgateProvider with a session kept across a reload', () => {
  it('records the calls its host runs in the session’s storage, and the next page answers a running one FAILED without running it', async () => {
    const storage = fakeStorage();
    const runs: string[] = [];
    const before = mount(storage, runs);
    act(() => void before.callTool({ callId: 'c1', name: 'send', arguments: {} }));
    await act(() => new Promise((resolve) => setTimeout(resolve, 0)));
    expect(runs).toEqual(['c1']);

    const after = mount(storage.copy(), runs);
    const answer = await act(() => after.callTool({ callId: 'c1', name: 'send', arguments: {} }));
    expect(answer).toEqual({ ok: false, code: 'FAILED', message: 'outcome unknown: the page reloaded while it ran' });
    expect(runs).toEqual(['c1']);
    expect(after.sent.filter((m) => m.type === 'tool.result')).toEqual([
      { type: 'tool.result', callId: 'c1', epoch: 0, result: answer },
    ]);
  });
});
