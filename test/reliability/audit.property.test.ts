// Over random requests, risks and the standing grants a person gives along the way: nothing
// high-risk runs without a person's own approval, and every run has a chain that verifies, with
// requested, decided, ran (the fingerprint sent) and settled records (docs/guarantees.md).
import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import { createToolgate, type ClientMessage } from 'toolgate/core';
import { createAuditLog, type AuditRecord } from 'toolgate/audit';
import { createScriptedSession } from 'toolgate/testing';

const TOOLS = [
  { name: 'read_file', risk: 'low', effect: 'read' },
  { name: 'send_email', risk: 'medium', effect: 'write' },
  { name: 'deploy', risk: 'high', effect: 'write' },
  { name: 'delete_repo', risk: 'high', effect: 'write' },
] as const;
const ACTIONS = ['approve', 'deny', 'respond', 'cancel', 'allowForSession', 'denyForSession'] as const;
type Action = (typeof ACTIONS)[number];

const step = fc.record({
  tool: fc.constantFrom(...TOOLS),
  action: fc.constantFrom(...ACTIONS),
  args: fc.dictionary(fc.constantFrom('a', 'b', 'path', 'to'), fc.oneof(fc.string({ maxLength: 6 }), fc.integer({ min: -5, max: 5 }), fc.boolean()), { maxKeys: 3 }),
});

type Approval = Extract<ClientMessage, { type: 'tool.approval' }>;

async function play(steps: { tool: (typeof TOOLS)[number]; action: Action; args: Record<string, unknown> }[]) {
  const audit = createAuditLog();
  const client = createToolgate({ audit });
  const session = createScriptedSession();
  client.connect(session);
  const answerOf = (requestId: string) => session.sent.find((m): m is Approval => m.type === 'tool.approval' && m.requestId === requestId);
  const ran: { callId: string; tool: (typeof TOOLS)[number]; answer: Approval }[] = [];
  for (const [i, { tool, action, args }] of steps.entries()) {
    const callId = `c${i}`;
    const requestId = `r${i}`;
    session.emit({ type: 'tool.stream', phase: 'start', callId, turnId: 't1', name: tool.name, risk: tool.risk });
    session.emit({ type: 'tool.stream', phase: 'arguments-complete', callId, arguments: args });
    session.emit({ type: 'tool.approval-request', requestId, callId, turnId: 't1', name: tool.name, arguments: args, risk: tool.risk, effect: tool.effect });
    // Answered by a grant, or shown to the person.
    await vi.waitFor(() => {
      const current = client.approvals.getState().current;
      expect(answerOf(requestId) !== undefined || (current?.callId === callId && current.status === 'reviewing')).toBe(true);
    });
    if (answerOf(requestId) === undefined) {
      const a = client.approvals;
      const acted =
        action === 'approve' ? a.approve()
        : action === 'deny' ? a.deny(`no ${i}`)
        : action === 'respond' ? a.respond({ answer: i })
        : action === 'cancel' ? a.cancel()
        : action === 'allowForSession' ? a.allowForSession()
        : a.denyForSession();
      // A grant refused (a high-risk tool takes no allow grant): the person says no instead.
      if (!acted) expect(a.deny('refused grant')).toBe(true);
    }
    const answer = await vi.waitFor(() => {
      const found = answerOf(requestId);
      expect(found).toBeDefined();
      return found as Approval;
    });
    // The server's side: it runs what was approved, and ends each call.
    if (answer.decision === 'approve') {
      ran.push({ callId, tool, answer });
      session.emit({ type: 'tool.stream', phase: 'settled', callId, ok: true, output: { done: i } });
    } else if (answer.decision === 'respond') {
      session.emit({ type: 'tool.stream', phase: 'settled', callId, ok: true, output: answer.output, answeredBy: 'person' });
    } else if (answer.decision === 'cancel') {
      session.emit({ type: 'tool.stream', phase: 'cancelled', callId });
    } else {
      session.emit({ type: 'tool.stream', phase: 'settled', callId, ok: false, code: 'REJECTED' });
    }
  }
  // Every call was decided (each waited for its answer): four records for a run, three otherwise.
  const expected = steps.length * 3 + ran.length;
  await vi.waitFor(() => expect(audit.getState().records.length).toBe(expected));
  client.close();
  return { records: audit.getState().records, ran, verified: await audit.verify() };
}

describe('property: people decide high-risk runs, and every run is on a chain that verifies', () => {
  it('holds over random requests, risks and grants', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 8 }), async (steps) => {
        const { records, ran, verified } = await play(steps);
        expect(verified).toMatchObject({ ok: true, length: records.length });
        for (const { callId, tool, answer } of ran) {
          const mine = records.filter((r) => r.callId === callId);
          expect(mine.map((r) => r.type)).toEqual(['requested', 'decided', 'ran', 'settled']);
          const decided = mine[1] as Extract<AuditRecord, { type: 'decided' }>;
          expect(decided.kind).toBe('approve');
          expect((mine[2] as Extract<AuditRecord, { type: 'ran' }>).argumentsFingerprint).toBe(answer.fingerprint);
          if (tool.risk === 'high') {
            // Never a grant, never sent as automatic: a person approved this very request.
            expect(decided.by).toBe('person');
            expect(answer.automatic).not.toBe(true);
          }
        }
      }),
      { seed: 2828, numRuns: 25 },
    );
  }, 120_000);
});
