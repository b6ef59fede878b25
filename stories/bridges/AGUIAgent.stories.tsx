import { useState } from 'react';
import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, userEvent, waitFor, within } from 'storybook/test';
import { HttpAgent } from '@ag-ui/client';
import { ConfirmToolDialog, ToolCallList, ToolgateProvider, useAppTool } from 'toolgate';
import { createAGUIBridge, type AGUIRunResult } from 'toolgate/ag-ui';
import { pageEndpoint, type PageScript } from '../../test/bridges/ag-ui-endpoint';
import { playToolsAndApproval } from '../support/bridges';
import { Frame, storySpeed } from '../support/scenarios';

interface Args {
  /** How fast the agent streams: 1 is one event every 60 ms (instant when run as a test). */
  speed: number;
}

/**
 * `toolgate/ag-ui` with AG-UI's real client (`HttpAgent`) reading the SSE stream the protocol's own
 * encoder writes (the agent answers in the page here). The agent calls a backend tool, a frontend
 * tool the page registers with `useAppTool` (the run goes on with its answer), and a tool whose run
 * waits for an approval interrupt, answered through the kit's dialog.
 */
const meta = {
  title: 'Bridges/AG-UI agent',
  tags: ['autodocs'],
  args: { speed: 1 },
  argTypes: { speed: { control: { type: 'range', min: 0.25, max: 8, step: 0.25 } } },
  parameters: { layout: 'padded' },
} satisfies Meta<Args>;
export default meta;
type Story = StoryObj<Args>;

const call = (id: string, name: string, fragments: string[]) => [
  { type: 'TOOL_CALL_START', toolCallId: id, toolCallName: name, parentMessageId: `msg-${id}` },
  ...fragments.map((delta) => ({ type: 'TOOL_CALL_ARGS', toolCallId: id, delta })),
  { type: 'TOOL_CALL_END', toolCallId: id },
];
const say = (id: string, text: string) => [
  { type: 'TEXT_MESSAGE_START', messageId: id, role: 'assistant' },
  { type: 'TEXT_MESSAGE_CONTENT', messageId: id, delta: text },
  { type: 'TEXT_MESSAGE_END', messageId: id },
];

const SCRIPT: PageScript = (input, run) => {
  if (run === 1) {
    return [
      { type: 'RUN_STARTED' },
      ...call('call-weather', 'weather', ['{"ci', 'ty":', '"Os', 'lo"}']),
      { type: 'TOOL_CALL_RESULT', toolCallId: 'call-weather', messageId: 'res-weather', content: '{"sky":"clear","temperature":3}' },
      ...call('call-title', 'setTitle', ['{"title":', '"Oslo: clear"}']),
      { type: 'RUN_FINISHED', outcome: { type: 'success', pendingToolCallIds: ['call-title'] } },
    ];
  }
  if (run === 2) {
    return [
      { type: 'RUN_STARTED' },
      ...call('call-delete', 'deleteFile', ['{"path":', '"/tmp/forecast.txt"}']),
      { type: 'RUN_FINISHED', outcome: { type: 'interrupt', interrupts: [{ id: 'int-delete', reason: 'tool_call', toolCallId: 'call-delete', message: 'Delete the old forecast?' }] } },
    ];
  }
  const approved = (input.resume?.[0]?.payload as { approved?: boolean } | undefined)?.approved === true;
  return [
    { type: 'RUN_STARTED' },
    ...(approved ? [{ type: 'TOOL_CALL_RESULT', toolCallId: 'call-delete', messageId: 'res-delete', content: '{"deleted":"/tmp/forecast.txt"}' }] : []),
    ...say('msg-done', approved ? 'Done: the old forecast is gone.' : 'Kept the old forecast.'),
    { type: 'RUN_FINISHED', outcome: { type: 'success' } },
  ];
};

function TitleTool({ onTitle }: { onTitle: (title: string) => void }) {
  useAppTool({
    name: 'setTitle',
    description: "Set the page's title",
    parameters: { type: 'object', required: ['title'], properties: { title: { type: 'string' } } },
    run: ({ title }) => {
      onTitle(String(title));
      return { title };
    },
  });
  return null;
}

function AgentPage({ speed, script = SCRIPT, holdAfter }: { speed: number; script?: PageScript; holdAfter?: number }) {
  const [{ agent, bridge }] = useState(() => {
    const pace = storySpeed(speed);
    const delayMs = pace === Infinity ? 0 : 60 / pace;
    const agent = new HttpAgent({ url: '/agent', fetch: pageEndpoint(script, holdAfter === undefined ? { delayMs } : { delayMs, holdAfter }) });
    return { agent, bridge: createAGUIBridge(agent) };
  });
  const [title, setTitle] = useState('Weather');
  const [result, setResult] = useState<AGUIRunResult | 'running' | undefined>();
  const start = () => {
    agent.addMessage({ id: 'user-1', role: 'user', content: 'What is the weather in Oslo? Then tidy up.' });
    setResult('running');
    void bridge.run().then(setResult);
  };
  return (
    <ToolgateProvider client={bridge.client}>
      <Frame>
        <TitleTool onTitle={setTitle} />
        <h2 style={{ margin: 0 }} data-testid="title">
          {title}
        </h2>
        <div style={{ display: 'flex', gap: '0.5rem' }}>
          <button type="button" onClick={start} disabled={result !== undefined}>
            Ask
          </button>
          <button type="button" onClick={() => bridge.stop()} disabled={result !== 'running'}>
            Stop
          </button>
          <span data-testid="run">Run: {typeof result === 'object' ? result.status : (result ?? 'idle')}</span>
        </div>
        <ToolCallList />
        <ConfirmToolDialog />
      </Frame>
    </ToolgateProvider>
  );
}

/**
 * The whole loop across three runs: `weather` runs at the agent, `setTitle` in the page (answered as
 * a tool message, then the run goes on), `deleteFile` waits for Approve in the kit's dialog, and
 * the run resumes with the answer.
 */
export const ToolsAndApproval: Story = {
  render: ({ speed }) => <AgentPage key={speed} speed={speed} />,
  play: ({ canvasElement }) =>
    playToolsAndApproval(canvasElement, async (canvas, allSettled) => {
      await waitFor(() => expect(canvas.getByTestId('run')).toHaveTextContent('Run: done'));
      await allSettled();
    }),
};

/** Stop while the agent is still writing a call's arguments: the run is aborted and the call cancelled at once. */
export const StoppedMidCall: Story = {
  render: ({ speed }) => (
    <AgentPage
      key={speed}
      speed={speed}
      script={() => [{ type: 'RUN_STARTED' }, { type: 'TOOL_CALL_START', toolCallId: 'call-weather', toolCallName: 'weather' }, { type: 'TOOL_CALL_ARGS', toolCallId: 'call-weather', delta: '{"city":"Os' }]}
      holdAfter={3}
    />
  ),
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await userEvent.click(canvas.getByRole('button', { name: 'Ask' }));
    await waitFor(() => expect(canvas.getByRole('article')).toHaveAttribute('data-status', 'streaming'));
    await userEvent.click(canvas.getByRole('button', { name: 'Stop' }));
    await waitFor(() => expect(canvas.getByRole('article')).toHaveAttribute('data-status', 'cancelled'));
    await waitFor(() => expect(canvas.getByTestId('run')).toHaveTextContent('Run: stopped'));
    await expect(canvas.queryByRole('group', { name: /^Output/ })).toBeNull();
  },
};
