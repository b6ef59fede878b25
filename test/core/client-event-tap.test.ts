import { describe, expect, it } from 'vitest';
import { createToolgate, createToolStreamStore, type ToolgateEvent } from 'toolgate/core';
import { callEvents, createScriptedSession, toolEvents as e } from 'toolgate/testing';

/** An event whose every property read is counted: the work done on it, whoever does it. */
function counted(event: object, reads: { n: number }): object {
  return new Proxy(event, {
    get(target, key, receiver) {
      reads.n++;
      return Reflect.get(target, key, receiver);
    },
  });
}

describe('client.onEvent: the tap the devtools record a session through', () => {
  it('costs nothing without a listener: no tap on the store, no entry built (the clock is read only for the store’s own stamps), the event read no more', async () => {
    const events = [...callEvents('c1', { name: 'search', arguments: { q: 'cats' } })];
    const run = async (listen: boolean) => {
      const stamps = { n: 0 };
      const reads = { n: 0 };
      const client = createToolgate({ storeOptions: { now: () => (stamps.n++, 1_000) } });
      let taps = 0;
      const tap = client.calls.tap.bind(client.calls);
      client.calls.tap = (listener) => (taps++, tap(listener));
      const heard: ToolgateEvent[] = [];
      if (listen) client.onEvent((entry) => heard.push(entry));
      const session = createScriptedSession();
      client.connect(session);
      for (const event of events) session.emit(counted(event, reads));
      // An app-tool call answered by the page: the answer path is watched too.
      await session.callTool({ callId: 'a1', name: 'missing_tool', arguments: {} });
      expect(client.calls.getState().calls['c1']?.status).toBe('settled');
      return { stamps: stamps.n, reads: reads.n, taps, heard: heard.length };
    };
    const quiet = await run(false);
    // One clock read per event the store took, and nothing else: no entry was made for anyone.
    expect(quiet.stamps).toBe(events.length);
    expect(quiet.taps).toBe(0);
    const watched = await run(true);
    expect(watched.taps).toBe(1);
    expect(watched.stamps).toBeGreaterThan(events.length);
    expect(watched.heard).toBeGreaterThan(events.length);
    // Recording reads nothing of an event either: it keeps the event as it came.
    expect(watched.reads).toBe(quiet.reads);
  });

  it('removes the store’s tap with the last listener', () => {
    const client = createToolgate();
    let attached = 0;
    const tap = client.calls.tap.bind(client.calls);
    client.calls.tap = (listener) => {
      attached++;
      const untap = tap(listener);
      return () => (attached--, untap());
    };
    const stopA = client.onEvent(() => {});
    const stopB = client.onEvent(() => {});
    expect(attached).toBe(1);
    stopA();
    stopA();
    expect(attached).toBe(1);
    stopB();
    expect(attached).toBe(0);
  });

  it('tells, in order, the session’s events with their verdicts, refused frames with reasons, the page’s own events and its answers', async () => {
    const client = createToolgate();
    const session = createScriptedSession();
    client.connect(session);
    const heard: ToolgateEvent[] = [];
    client.onEvent((entry) => heard.push(entry));
    session.emit(e.start('c1', { name: 'search', turnId: 't1' }));
    session.emit({ type: 'tool.stream', phase: 'progress', callId: 'nobody' });
    session.emit({ type: 'toolgate.interrupt', turnId: 't1' });
    client.calls.getState().interrupt('t1');
    await session.callTool({ callId: 'a1', name: 'missing_tool', arguments: {} });

    const kinds = heard.map((entry) => (entry.source === 'session' || entry.source === 'page' ? `${entry.source}:${entry.verdict.outcome}` : entry.source));
    expect(kinds.slice(0, 4)).toEqual(['session:applied', 'session:rejected', 'session:rejected', 'page:applied']);
    const refused = heard[1];
    expect(refused?.source === 'session' && refused.verdict.outcome === 'rejected' && refused.verdict.issue).toBe('unknown-call');
    const local = heard[2];
    expect(local?.source === 'session' && local.verdict.outcome === 'rejected' && local.verdict.issue).toBe('local-only');
    const page = heard[3];
    expect(page?.source === 'page' && page.state.calls['c1']?.status).toBe('cancelled');
    // The page answered the app-tool call it could not run (no such tool): the call, then the answer.
    expect(kinds).toContain('tool-call');
    const answer = heard.find((entry) => entry.source === 'answer' && entry.message.type === 'tool.result');
    expect(answer).toBeDefined();
    expect(heard.findIndex((entry) => entry.source === 'tool-call')).toBeLessThan(heard.indexOf(answer as ToolgateEvent));
  });

  it('keeps a throwing listener from undoing the change or silencing the others', () => {
    const errors: string[] = [];
    const client = createToolgate({ onError: (_reason, _detail, code) => errors.push(code) });
    const heard: string[] = [];
    client.onEvent(() => {
      throw new Error('listener bug');
    });
    client.onEvent((entry) => heard.push(entry.source));
    client.calls.getState().dispatch(e.start('c1', { name: 'search' }));
    expect(client.calls.getState().order).toEqual(['c1']);
    expect(heard).toEqual(['session']);
    expect(errors).toContain('listener-threw');
  });
});
