/**
 * toolgate/ag-ui end to end with the real libraries: an AG-UI endpoint whose events the
 * protocol's own encoder writes, on a real HTTP server; the page's `HttpAgent` from
 * `@ag-ui/client`; and the kit rendered in React.
 */
import { StrictMode } from 'react';
import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, onTestFinished, vi } from 'vitest';
import { HttpAgent } from '@ag-ui/client';
import { ConfirmToolDialog, ToolCallList, ToolgateProvider, useAppTool, useInterrupt, type AppTool } from 'toolgate';
import { isTerminalStatus } from 'toolgate/core';
import { canonicalJson, fingerprintJson } from 'toolgate/json';
import { createAGUIBridge, type AGUIAgentLike, type AGUIBridge } from 'toolgate/ag-ui';
import { startAgentServer, type AgentScript, type AgentServer } from './ag-ui-server';

const servers: AgentServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

interface Reported {
  reason: string;
  detail: unknown;
  code: string;
}

async function setup(script: AgentScript) {
  const server = await startAgentServer(script);
  servers.push(server);
  const reported: Reported[] = [];
  const agent = new HttpAgent({ url: server.url });
  // HttpAgent is an agent as the bridge describes it.
  const asBridged: AGUIAgentLike = agent;
  const bridge = createAGUIBridge(asBridged, { onError: (reason, detail, code) => reported.push({ reason, detail, code }) });
  agent.addMessage({ id: 'user-1', role: 'user', content: 'Go' });
  return { server, agent, bridge, reported };
}

const call = (id: string, name: string, fragments: string[], extra: Record<string, unknown> = {}) => [
  { type: 'TOOL_CALL_START', toolCallId: id, toolCallName: name, parentMessageId: `msg-${id}`, ...extra },
  ...fragments.map((delta) => ({ type: 'TOOL_CALL_ARGS', toolCallId: id, delta, ...extra })),
  { type: 'TOOL_CALL_END', toolCallId: id, ...extra },
];
const started = { type: 'RUN_STARTED' };
const finished = (outcome?: unknown) => ({ type: 'RUN_FINISHED', ...(outcome ? { outcome } : {}) });
const text = (id: string, words: string) => [
  { type: 'TEXT_MESSAGE_START', messageId: id, role: 'assistant' },
  { type: 'TEXT_MESSAGE_CONTENT', messageId: id, delta: words },
  { type: 'TEXT_MESSAGE_END', messageId: id },
];

const calls = (bridge: AGUIBridge) => {
  const { calls: byId, order } = bridge.store.getState();
  return order.map((id) => byId[id]!);
};

function Page({ bridge, tools = [] }: { bridge: AGUIBridge; tools?: AppTool[] }) {
  return (
    <ToolgateProvider store={bridge.store} host={bridge.host} confirmations={bridge.confirmations}>
      {tools.map((tool) => (
        <Registered key={tool.name} tool={tool} />
      ))}
      <Interrupt />
      <ToolCallList />
      <ConfirmToolDialog />
    </ToolgateProvider>
  );
}
function Registered({ tool }: { tool: AppTool }) {
  useAppTool(tool);
  return null;
}
function Interrupt() {
  const interrupt = useInterrupt();
  return (
    <button type="button" onClick={() => interrupt()}>
      Interrupt
    </button>
  );
}

describe("the agent's events fill the store", () => {
  it('TOOL_CALL_START/ARGS/END as argument text fragments, TOOL_CALL_RESULT as the output', async () => {
    const { bridge, reported } = await setup(() => ({
      events: [
        started,
        ...call('c1', 'weather', ['{"city":', '"Os', 'lo"}']),
        { type: 'TOOL_CALL_RESULT', toolCallId: 'c1', messageId: 'r1', content: '{"sky":"clear","temperature":3}' },
        ...text('m1', 'Clear in Oslo.'),
        finished({ type: 'success' }),
      ],
    }));
    const texts: string[] = [];
    bridge.store.subscribe((state) => {
      const t = state.calls['c1']?.argumentsText;
      if (t && t !== texts.at(-1)) texts.push(t);
    });
    await expect(bridge.run()).resolves.toEqual({ status: 'done' });
    expect(texts).toEqual(['{"city":', '{"city":"Os', '{"city":"Oslo"}']);
    expect(calls(bridge)[0]).toMatchObject({ name: 'weather', status: 'settled', ok: true, arguments: { city: 'Oslo' }, output: { sky: 'clear', temperature: 3 } });
    expect(reported).toEqual([]);
  });

  it("nests the calls a sub-agent makes under the call that started it (SUBAGENT_*)", async () => {
    const { bridge } = await setup(() => ({
      events: [
        started,
        ...call('research', 'research', ['{"topic":"tides"}']),
        { type: 'SUBAGENT_STARTED', subagentRunId: 'sub-1', name: 'researcher', parentToolCallId: 'research' },
        ...call('search', 'search', ['{"q":"tides"}'], { subagentRunId: 'sub-1' }),
        { type: 'TOOL_CALL_RESULT', toolCallId: 'search', messageId: 'r1', content: '["a","b"]', subagentRunId: 'sub-1' },
        { type: 'SUBAGENT_FINISHED', subagentRunId: 'sub-1' },
        { type: 'TOOL_CALL_RESULT', toolCallId: 'research', messageId: 'r2', content: 'done' },
        finished({ type: 'success' }),
      ],
    }));
    await bridge.run();
    expect(calls(bridge).map((c) => [c.callId, c.parentCallId, c.status])).toEqual([
      ['research', undefined, 'settled'],
      ['search', 'research', 'settled'],
    ]);
  });

  it('ends every open call at the run’s error', async () => {
    const { bridge } = await setup(() => ({
      events: [
        started,
        ...call('done', 'weather', ['{"city":"Rome"}']),
        { type: 'TOOL_CALL_START', toolCallId: 'open', toolCallName: 'weather' },
        { type: 'TOOL_CALL_ARGS', toolCallId: 'open', delta: '{"city":' },
        { type: 'RUN_ERROR', message: 'model overloaded' },
      ],
    }));
    await expect(bridge.run()).resolves.toEqual({ status: 'error', message: 'model overloaded' });
    expect(calls(bridge).map((c) => [c.callId, c.status])).toEqual([
      ['done', 'cancelled'],
      ['open', 'failed'],
    ]);
    expect(calls(bridge)[1]!.message).toBe('AG-UI: the stream reported an error: model overloaded');
  });

  it('ends the arguments still open at the run’s end (the stream stopped in the middle of a call)', async () => {
    const { bridge } = await setup(() => ({
      events: [started, { type: 'TOOL_CALL_START', toolCallId: 'c1', toolCallName: 'weather' }, { type: 'TOOL_CALL_ARGS', toolCallId: 'c1', delta: '{"ci' }],
    }));
    const result = await bridge.run();
    expect(result.status).toBe('error');
    expect(calls(bridge)[0]).toMatchObject({ status: 'failed' });
  });
});

describe('frontend tools', () => {
  const setTitle = (ran: unknown[]): AppTool => ({
    name: 'setTitle',
    description: "Set the page's title",
    parameters: { type: 'object', properties: { title: { type: 'string' } }, required: ['title'] },
    run: (args) => {
      ran.push(args);
      return { title: (args as { title: string }).title };
    },
  });

  it('run through the host when the run leaves them pending, answer as tool messages, and the run goes on', async () => {
    const { bridge, server, reported } = await setup((_input, run) =>
      run === 1
        ? { events: [started, ...call('c1', 'setTitle', ['{"title":', '"Hi"}']), finished({ type: 'success', pendingToolCallIds: ['c1'] })] }
        : { events: [started, ...text('m2', 'Title set.'), finished({ type: 'success' })] },
    );
    const ran: unknown[] = [];
    render(
      <StrictMode>
        <Page bridge={bridge} tools={[setTitle(ran)]} />
      </StrictMode>,
    );
    await waitFor(() => expect(bridge.host.declarations().map((d) => d.name)).toEqual(['setTitle']));
    await act(async () => {
      await expect(bridge.run()).resolves.toEqual({ status: 'done' });
    });
    expect(ran).toEqual([{ title: 'Hi' }]);
    // The page's tools were offered to the agent, and its answer went back in the next run.
    expect(server.inputs[0]!.tools.map((t) => t.name)).toEqual(['setTitle']);
    expect(server.inputs[1]!.messages.at(-1)).toEqual({ id: 'c1-result', role: 'tool', toolCallId: 'c1', content: '{"title":"Hi"}' });
    expect(calls(bridge)[0]).toMatchObject({ status: 'settled', ok: true, output: { title: 'Hi' } });
    expect(reported).toEqual([]);
  });

  it('answer a pending call the page has no tool for as an error, and the run goes on', async () => {
    const { bridge, server } = await setup((_input, run) =>
      run === 1
        ? { events: [started, ...call('c1', 'unknownTool', ['{}']), finished({ type: 'success' })] }
        : { events: [started, finished({ type: 'success' })] },
    );
    await expect(bridge.run()).resolves.toEqual({ status: 'done' });
    const answer = server.inputs[1]!.messages.at(-1) as { role: string; error?: string };
    expect(answer).toMatchObject({ role: 'tool', toolCallId: 'c1', error: expect.stringMatching(/^FAILED/) });
    expect(calls(bridge)[0]).toMatchObject({ status: 'settled', ok: false, code: 'FAILED' });
  });
});

describe('approval interrupts', () => {
  const deleteScript: AgentScript = (input, run) => {
    if (run === 1) {
      return {
        events: [
          started,
          ...call('c1', 'deleteFile', ['{"path":', '"/tmp/report.txt"}']),
          finished({ type: 'interrupt', interrupts: [{ id: 'int-1', reason: 'tool_call', toolCallId: 'c1', message: 'Delete /tmp/report.txt?' }] }),
        ],
      };
    }
    const approved = (input.resume?.[0]?.payload as { approved?: boolean } | undefined)?.approved === true;
    return {
      events: [
        started,
        ...(approved ? [{ type: 'TOOL_CALL_RESULT', toolCallId: 'c1', messageId: 'r1', content: '{"deleted":"/tmp/report.txt"}' }] : []),
        finished({ type: 'success' }),
      ],
    };
  };

  it("go through the kit's confirmation queue; the run resumes with the answer, bound to the snapshot's fingerprint", async () => {
    const { bridge, server, reported } = await setup(deleteScript);
    const user = userEvent.setup();
    render(<Page bridge={bridge} />);
    const done = bridge.run();
    const dialog = await screen.findByRole('dialog');
    expect(dialog).toHaveTextContent('/tmp/report.txt');
    expect(calls(bridge)[0]).toMatchObject({ status: 'issued', approval: 'awaiting' });
    await user.click(within(dialog).getByRole('button', { name: 'Approve' }));
    await act(async () => {
      await expect(done).resolves.toEqual({ status: 'done' });
    });
    const { hex } = await fingerprintJson({ path: '/tmp/report.txt' });
    expect(server.inputs[1]!.resume).toEqual([
      { interruptId: 'int-1', status: 'resolved', payload: { approved: true }, metadata: { toolgate: { toolName: 'deleteFile', fingerprint: hex } } },
    ]);
    expect(calls(bridge)[0]).toMatchObject({ status: 'settled', ok: true, output: { deleted: '/tmp/report.txt' }, approval: 'approved' });
    expect(canonicalJson(calls(bridge)[0]!.approvedArguments!)).toBe('{"path":"/tmp/report.txt"}');
    expect(reported).toEqual([]);
  });

  it('an approval of a sub-agent’s call names the call that started the sub-agent', async () => {
    const { bridge } = await setup((_input, run) =>
      run === 1
        ? {
            events: [
              started,
              ...call('research', 'research', ['{"topic":"refunds"}']),
              { type: 'SUBAGENT_STARTED', subagentRunId: 'sub-1', name: 'researcher', parentToolCallId: 'research' },
              ...call('refund', 'issue_refund', ['{"orderId":"o1"}'], { subagentRunId: 'sub-1' }),
              { type: 'SUBAGENT_FINISHED', subagentRunId: 'sub-1' },
              finished({ type: 'interrupt', interrupts: [{ id: 'int-1', reason: 'tool_call', toolCallId: 'refund' }] }),
            ],
          }
        : { events: [started, finished({ type: 'success' })] },
    );
    render(<Page bridge={bridge} />);
    const done = bridge.run();
    const dialog = await screen.findByRole('dialog');
    expect(bridge.confirmations.getState().current?.parent).toEqual({ callId: 'research', toolName: 'research' });
    within(dialog).getByText('Part of research (call research)');
    await userEvent.setup().click(within(dialog).getByRole('button', { name: 'Deny' }));
    await act(async () => {
      await done;
    });
  });

  it('a denial resumes with approved false and its reason, and the card says denied', async () => {
    const { bridge, server } = await setup(deleteScript);
    const user = userEvent.setup();
    render(<Page bridge={bridge} />);
    const done = bridge.run();
    const dialog = await screen.findByRole('dialog');
    await user.click(within(dialog).getByRole('button', { name: 'Deny' }));
    await act(async () => {
      await done;
    });
    expect(server.inputs[1]!.resume![0]).toMatchObject({ interruptId: 'int-1', status: 'resolved', payload: { approved: false } });
    expect(calls(bridge)[0]).toMatchObject({ status: 'settled', ok: false, code: 'REJECTED', approval: 'denied' });
  });

  it('withdraw resumes cancelled (not resolved, not a denial), and the card says cancelled; nothing runs', async () => {
    const { bridge, server } = await setup(deleteScript);
    const user = userEvent.setup();
    render(<Page bridge={bridge} />);
    const done = bridge.run();
    const dialog = await screen.findByRole('dialog');
    await user.click(await within(dialog).findByRole('button', { name: 'Withdraw request' }));
    await act(async () => {
      await done;
    });
    expect(server.inputs[1]!.resume).toEqual([{ interruptId: 'int-1', status: 'cancelled' }]);
    expect(calls(bridge)[0]?.approval).toBe('cancelled');
    expect(calls(bridge)[0]?.code).not.toBe('REJECTED');
  });

  it('respond resumes resolved with the person’s answer, and the card settles with it, answered by a person', async () => {
    const { bridge, server } = await setup(deleteScript);
    const user = userEvent.setup();
    render(<Page bridge={bridge} />);
    const done = bridge.run();
    const dialog = await screen.findByRole('dialog');
    await user.click(await within(dialog).findByRole('button', { name: 'Respond instead' }));
    await user.type(within(dialog).getByRole('textbox', { name: 'Your answer (JSON)' }), '{{"kept": true}');
    await user.click(within(dialog).getByRole('button', { name: 'Send answer' }));
    await act(async () => {
      await done;
    });
    expect(server.inputs[1]!.resume).toEqual([
      { interruptId: 'int-1', status: 'resolved', payload: { approved: false, decision: 'respond', output: { kept: true } }, metadata: { toolgate: { toolName: 'deleteFile', fingerprint: expect.stringMatching(/^[0-9a-f]{64}$/) } } },
    ]);
    expect(calls(bridge)[0]).toMatchObject({ status: 'settled', ok: true, output: { kept: true }, answeredBy: 'person', approval: 'responded' });
  });

  it('the reason typed in the default dialog goes in the resume payload and shows on the card', async () => {
    const { bridge, server } = await setup(deleteScript);
    const user = userEvent.setup();
    render(<Page bridge={bridge} />);
    const done = bridge.run();
    const dialog = await screen.findByRole('dialog');
    await user.type(within(dialog).getByRole('textbox', { name: 'Reason for the agent (optional)' }), 'keep it for the audit');
    await user.click(within(dialog).getByRole('button', { name: 'Deny' }));
    await act(async () => {
      await done;
    });
    expect(server.inputs[1]!.resume![0]).toMatchObject({ interruptId: 'int-1', status: 'resolved', payload: { approved: false, reason: 'keep it for the audit' } });
    expect(calls(bridge)[0]).toMatchObject({ status: 'settled', code: 'REJECTED', message: 'keep it for the audit' });
    expect(screen.getByText('keep it for the audit')).toBeInTheDocument();
  });

  it('an interrupt past its expiry is cancelled, never answered', async () => {
    const { bridge, server, reported } = await setup((_input, run) =>
      run === 1
        ? {
            events: [
              started,
              ...call('c1', 'deleteFile', ['{"path":"/x"}']),
              finished({ type: 'interrupt', interrupts: [{ id: 'int-1', reason: 'tool_call', toolCallId: 'c1', expiresAt: '2000-01-01T00:00:00Z' }] }),
            ],
          }
        : { events: [started, finished({ type: 'success' })] },
    );
    await bridge.run();
    expect(server.inputs[1]!.resume).toEqual([{ interruptId: 'int-1', status: 'cancelled' }]);
    expect(reported.map((r) => r.code)).toEqual(['interrupt-expired']);
  });
});

describe('an approval is bound to the tool that was shown, not only its arguments', () => {
  /** The agent starts a call as one tool, then starts it again under another name: the client renames it in its messages. */
  const renamed = (id: string, shown: string, now: string, args: string) => [
    ...call(id, shown, [args]),
    { type: 'TOOL_CALL_START', toolCallId: id, toolCallName: now, parentMessageId: `msg-${id}` },
    { type: 'TOOL_CALL_END', toolCallId: id },
  ];

  it('an interrupt about a call the agent renamed after it was shown asks nobody and resumes cancelled, never approved (approval-mismatch)', async () => {
    const warned = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    onTestFinished(() => warned.mockRestore());
    const { bridge, server, reported } = await setup((_input, run) =>
      run === 1
        ? { events: [started, ...renamed('c1', 'readFile', 'deleteFile', '{"path":"/etc"}'), finished({ type: 'interrupt', interrupts: [{ id: 'int-1', reason: 'tool_call', toolCallId: 'c1' }] })] }
        : { events: [started, finished({ type: 'success' })] },
    );
    render(<Page bridge={bridge} />);
    await act(async () => {
      await expect(bridge.run()).resolves.toEqual({ status: 'done' });
    });
    expect(server.inputs[1]!.resume).toEqual([{ interruptId: 'int-1', status: 'cancelled' }]);
    expect(reported.map((r) => r.code)).toContain('approval-mismatch');
    expect(bridge.confirmations.getState().current).toBeNull();
    expect(calls(bridge)[0]).toMatchObject({ name: 'readFile', status: 'cancelled' });
  });

  it('an approval given while the agent renamed the call is not sent: the interrupt resumes cancelled (approval-mismatch)', async () => {
    const { agent, bridge, server, reported } = await setup((_input, run) =>
      run === 1
        ? { events: [started, ...call('c1', 'readFile', ['{"path":"/etc"}']), finished({ type: 'interrupt', interrupts: [{ id: 'int-1', reason: 'tool_call', toolCallId: 'c1' }] })] }
        : { events: [started, finished({ type: 'success' })] },
    );
    const user = userEvent.setup();
    render(<Page bridge={bridge} />);
    const done = bridge.run();
    const dialog = await screen.findByRole('dialog');
    expect(dialog).toHaveTextContent('readFile');
    // The conversation the next run sends now calls another tool under the same id.
    agent.messages = agent.messages.map((m) =>
      m.role === 'assistant' && m.toolCalls ? { ...m, toolCalls: m.toolCalls.map((t) => ({ ...t, function: { ...t.function, name: 'deleteFile' } })) } : m,
    );
    await user.click(within(dialog).getByRole('button', { name: 'Approve' }));
    await act(async () => {
      await done;
    });
    expect(server.inputs[1]!.resume).toEqual([{ interruptId: 'int-1', status: 'cancelled' }]);
    expect(reported.map((r) => r.code)).toEqual(['approval-mismatch']);
  });

  it("a pending frontend call the agent renamed after it was shown runs nothing and answers nothing (approval-mismatch)", async () => {
    const warned = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    onTestFinished(() => warned.mockRestore());
    const ran: unknown[] = [];
    const { bridge, server, reported } = await setup(() => ({
      events: [started, ...renamed('c1', 'readTitle', 'setTitle', '{"title":"x"}'), finished({ type: 'success', pendingToolCallIds: ['c1'] })],
    }));
    render(<Page bridge={bridge} tools={[{ name: 'readTitle', run: (args) => void ran.push(args) }, { name: 'setTitle', run: (args) => void ran.push(args) }]} />);
    await waitFor(() => expect(bridge.host.declarations()).toHaveLength(2));
    await act(async () => {
      await expect(bridge.run()).resolves.toMatchObject({ status: 'error' });
    });
    expect(ran).toEqual([]);
    expect(server.inputs).toHaveLength(1);
    expect(reported.map((r) => r.code)).toContain('approval-mismatch');
  });
});

describe('one answer per call, for the agent’s life', () => {
  const toolMessages = (input: { messages: Array<{ role: string; toolCallId?: string }> }, id: string) =>
    input.messages.filter((m) => m.role === 'tool' && m.toolCallId === id);

  it('a pending call listed twice, and again in a later run, runs once and is answered with one tool message; the repeats are reported', async () => {
    const ran: unknown[] = [];
    const { bridge, server, reported } = await setup((_input, run) =>
      run === 1
        ? { events: [started, ...call('c1', 'setTitle', ['{"title":"Hi"}']), finished({ type: 'success', pendingToolCallIds: ['c1', 'c1'] })] }
        : run === 2
          ? { events: [started, finished({ type: 'success', pendingToolCallIds: ['c1'] })] }
          : { events: [started, finished({ type: 'success' })] },
    );
    render(<Page bridge={bridge} tools={[{ name: 'setTitle', run: (args) => void ran.push(args) }]} />);
    await waitFor(() => expect(bridge.host.declarations()).toHaveLength(1));
    await act(async () => {
      await expect(bridge.run()).resolves.toMatchObject({ status: 'error' });
    });
    expect(ran).toEqual([{ title: 'Hi' }]);
    expect(server.inputs).toHaveLength(2);
    expect(toolMessages(server.inputs[1]!, 'c1')).toHaveLength(1);
    expect(reported.map((r) => r.code)).toEqual(['duplicate-call', 'duplicate-call']);
    expect(calls(bridge)[0]).toMatchObject({ status: 'settled', ok: true });
  });

  it('two interrupts for one call open one dialog and resume one answer; the second, and one in a later run, are cancelled and reported', async () => {
    const { bridge, server, reported } = await setup((_input, run) =>
      run === 1
        ? {
            events: [
              started,
              ...call('c1', 'deleteFile', ['{"path":"/tmp/a"}']),
              finished({ type: 'interrupt', interrupts: [{ id: 'int-1', reason: 'tool_call', toolCallId: 'c1' }, { id: 'int-2', reason: 'tool_call', toolCallId: 'c1' }] }),
            ],
          }
        : run === 2
          ? { events: [started, finished({ type: 'interrupt', interrupts: [{ id: 'int-3', reason: 'tool_call', toolCallId: 'c1' }] })] }
          : { events: [started, finished({ type: 'success' })] },
    );
    const user = userEvent.setup();
    render(<Page bridge={bridge} />);
    const done = bridge.run();
    const dialog = await screen.findByRole('dialog');
    expect(bridge.confirmations.getState().waiting).toBe(0);
    await user.click(within(dialog).getByRole('button', { name: 'Approve' }));
    await act(async () => {
      await expect(done).resolves.toEqual({ status: 'done' });
    });
    expect(server.inputs[1]!.resume!.map((e) => [e.interruptId, e.status, (e.payload as { approved?: boolean } | undefined)?.approved])).toEqual([
      ['int-1', 'resolved', true],
      ['int-2', 'cancelled', undefined],
    ]);
    expect(server.inputs[2]!.resume).toEqual([{ interruptId: 'int-3', status: 'cancelled' }]);
    expect(reported.map((r) => r.code)).toEqual(['duplicate-interrupt', 'duplicate-interrupt']);
  });
});

describe('interrupts the bridge does not recognise', () => {
  it('are reported through onError with what is missing, and resume cancelled', async () => {
    const { bridge, server, reported } = await setup((_input, run) =>
      run === 1
        ? {
            events: [
              started,
              finished({ type: 'interrupt', interrupts: [{ id: 'int-1', reason: 'input_required', message: 'Which folder?' }, { id: 'int-2', reason: 'tool_call' }] }),
            ],
          }
        : { events: [started, finished({ type: 'success' })] },
    );
    await expect(bridge.run()).resolves.toEqual({ status: 'done' });
    expect(server.inputs[1]!.resume).toEqual([
      { interruptId: 'int-1', status: 'cancelled' },
      { interruptId: 'int-2', status: 'cancelled' },
    ]);
    expect(reported.map((r) => [r.code, r.reason])).toEqual([
      ['interrupt-unanswered', 'AG-UI: nothing here answers interrupt int-1: its reason is "input_required", not "tool_call"; it was cancelled'],
      ['interrupt-unanswered', 'AG-UI: nothing here answers interrupt int-2: it asks about a tool call but names none (no toolCallId); it was cancelled'],
    ]);
  });
});

describe('stopping', () => {
  it('cancels every open call at once: arguments streaming, a frontend tool running, an approval waiting', async () => {
    let signal: AbortSignal | undefined;
    const { bridge, server } = await setup((_input, run) =>
      run === 1
        ? { events: [started, ...call('c1', 'slow', ['{}']), finished({ type: 'success', pendingToolCallIds: ['c1'] })] }
        : { events: [started, { type: 'TOOL_CALL_START', toolCallId: 'c2', toolCallName: 'weather' }, { type: 'TOOL_CALL_ARGS', toolCallId: 'c2', delta: '{"ci' }, finished()], holdBefore: 3 },
    );
    const slow: AppTool = {
      name: 'slow',
      run: (_args, ctx) => {
        signal = ctx.signal;
        return new Promise(() => {});
      },
    };
    const user = userEvent.setup();
    render(<Page bridge={bridge} tools={[slow]} />);
    await waitFor(() => expect(bridge.host.declarations()).toHaveLength(1));
    const done = bridge.run();
    await waitFor(() => expect(signal).toBeDefined());
    expect(calls(bridge)[0]?.status).toBe('issued');
    await user.click(screen.getByRole('button', { name: 'Interrupt' }));
    await act(async () => {
      await expect(done).resolves.toEqual({ status: 'stopped' });
    });
    expect(signal!.aborted).toBe(true);
    expect(calls(bridge).map((c) => c.status)).toEqual(['cancelled']);
    expect(server.inputs).toHaveLength(1);
  });

  it('stop() aborts a run in the middle of a call and cancels it', async () => {
    const { bridge, server } = await setup(() => ({
      events: [started, { type: 'TOOL_CALL_START', toolCallId: 'c1', toolCallName: 'weather' }, { type: 'TOOL_CALL_ARGS', toolCallId: 'c1', delta: '{"ci' }, finished()],
      holdBefore: 3,
    }));
    const done = bridge.run();
    await waitFor(() => expect(calls(bridge)[0]?.status).toBe('streaming'));
    bridge.stop();
    await expect(done).resolves.toEqual({ status: 'stopped' });
    expect(calls(bridge)[0]?.status).toBe('cancelled');
    server.release();
  });
});

describe('bad input', () => {
  it('a malformed event fails the run in the client; the bridge reports it and leaves no call running', async () => {
    // The client logs the failure itself before it rejects the run.
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    onTestFinished(() => logged.mockRestore());
    const { bridge, reported } = await setup(() => ({
      events: [started, { type: 'TOOL_CALL_START', toolCallId: 'c1', toolCallName: 'weather' }, { type: 'TOOL_CALL_ARGS', toolCallId: 'c1', delta: 7 }, finished()],
    }));
    const result = await bridge.run();
    expect(result).toEqual({ status: 'error', message: expect.stringMatching(/expected string/) });
    expect(reported.map((r) => r.code)).toEqual(['run-failed']);
    expect(calls(bridge).filter((c) => !isTerminalStatus(c.status))).toEqual([]);
  });

  it('events the client hands over that AG-UI 1.0 does not have are ignored with a reason, once per type; malformed ones are reported', async () => {
    // An agent of the shape the bridge takes, whose subscribers hear these events as they are.
    let hear: ((event: unknown) => void) | undefined;
    const agent: AGUIAgentLike = {
      subscribe: (subscriber) => {
        hear = (event) => subscriber.onEvent?.({ event });
        return { unsubscribe: () => (hear = undefined) };
      },
      runAgent: async (_parameters, subscriber) => {
        for (const event of [
          { type: 'RUN_STARTED', threadId: 't', runId: 'r1' },
          { type: 'FUTURE_EVENT', x: 1 },
          { type: 'FUTURE_EVENT', x: 2 },
          { type: 'TOOL_CALL_START', toolCallId: 'c1' },
          { type: 'TOOL_CALL_START', toolCallId: 'c2', toolCallName: 'weather' },
          { type: 'TOOL_CALL_ARGS', toolCallId: 'c2', delta: '{}' },
          'not an event',
          { type: 'TOOL_CALL_END', toolCallId: 'c2' },
        ]) {
          hear?.(event);
        }
        subscriber?.onRunFinishedEvent?.({ outcome: 'success', pendingToolCallIds: [] });
      },
      abortRun: () => undefined,
      addMessage: () => undefined,
    };
    const reported: Reported[] = [];
    const bridge = createAGUIBridge(agent, { onError: (reason, detail, code) => reported.push({ reason, detail, code }) });
    await expect(bridge.run()).resolves.toEqual({ status: 'done' });
    expect(reported.map((r) => [r.code, r.reason])).toEqual([
      ['ignored-event', 'AG-UI: events of type "FUTURE_EVENT" are not part of AG-UI 1.0; they are ignored'],
      ['malformed-chunk', 'AG-UI: TOOL_CALL_START.toolCallName is missing'],
      ['not-json', 'AG-UI: a chunk is not JSON: the string "not an event"'],
    ]);
    expect(calls(bridge)).toEqual([expect.objectContaining({ callId: 'c2', status: 'issued', arguments: {} })]);
    bridge.close();
    expect(hear).toBeUndefined();
  });

  it('a second run() while one is going is refused with a reason', async () => {
    const { bridge, server, reported } = await setup(() => ({ events: [started, finished()], holdBefore: 1 }));
    const first = bridge.run();
    await expect(bridge.run()).resolves.toEqual({ status: 'busy' });
    expect(reported.map((r) => r.code)).toEqual(['busy']);
    server.release();
    await expect(first).resolves.toEqual({ status: 'done' });
  });
});
