import type { Meta, StoryObj } from '@storybook/react-vite';
import { useEffect, useMemo } from 'react';
import { expect, userEvent, waitFor, within } from 'storybook/test';
import { createToolgate } from 'toolgate';
import { ToolgateDevtools, createDevtoolsRecorder } from 'toolgate/devtools';
import { callEvents, createScriptedSession, toolEvents as e, type ToolgateRecording } from 'toolgate/testing';
import { Frame } from '../support/scenarios';

/**
 * `<ToolgateDevtools client>` (`toolgate/devtools`): a session's events (filter by call, type and
 * turn; refused frames with their reasons), a call's history step by step with the arrow keys, its
 * approval and audit records, and recordings to export or import.
 */
const meta = {
  title: 'Devtools/ToolgateDevtools',
  component: ToolgateDevtools,
  tags: ['autodocs'],
  decorators: [(Story) => <Frame>{Story()}</Frame>],
} satisfies Meta<typeof ToolgateDevtools>;
export default meta;
type Story = StoryObj<typeof meta>;

function LiveSession() {
  const { client, recorder, session } = useMemo(() => {
    const client = createToolgate();
    const recorder = createDevtoolsRecorder(client);
    const session = createScriptedSession();
    client.connect(session);
    return { client, recorder, session };
  }, []);
  useEffect(() => {
    for (const event of callEvents('c1', { name: 'search', turnId: 't1', arguments: { q: 'cats' } })) session.emit(event);
    session.emit(e.start('c2', { name: 'fetch_page', turnId: 't2' }));
    session.emit({ type: 'tool.stream', phase: 'progress', callId: 'ghost', progress: 1 });
  }, [session]);
  return <ToolgateDevtools client={client} recorder={recorder} />;
}

/** A live scripted session: one call settled, one pending, one frame refused. Keyboard: step through c1. */
export const LiveSessionStepping: Story = {
  args: { client: createToolgate() },
  render: () => <LiveSession />,
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    const events = await canvas.findByRole('list', { name: 'Events' });
    await waitFor(() => expect(within(events).getByText(/ghost · rejected · refused:/)).toBeTruthy());
    await userEvent.click(within(events).getByText(/#\d+ tool.stream\/start c1 /));
    const history = canvas.getByRole('region', { name: 'Call history' });
    const stepper = within(history).getByRole('group', { name: /Steps of call c1/ });
    stepper.focus();
    await userEvent.keyboard('{End}');
    await waitFor(() => expect(within(history).getByLabelText('State after this step').textContent).toContain('"status": "settled"'));
    await userEvent.keyboard('{ArrowLeft}');
    await waitFor(() => expect(within(history).getByLabelText('State after this step').textContent).toContain('"status": "issued"'));
  },
};

const RECORDING: ToolgateRecording = {
  format: 'toolgate.recording',
  version: 1,
  startedAt: 1_700_000_000_000,
  events: [
    { type: 'tool.stream', phase: 'start', callId: 'c1', turnId: 't1', name: 'delete_file' },
    { type: 'toolgate.pause', ms: 120 },
    { type: 'tool.stream', phase: 'arguments-complete', callId: 'c1', arguments: { path: '/tmp/a' } },
    { type: 'toolgate.page', event: { type: 'approval', callId: 'c1', mark: { approval: 'denied', reason: 'not that file' } } },
    { type: 'tool.stream', phase: 'settled', callId: 'c9', ok: true },
  ],
  answers: [{ after: 4, at: 1_700_000_000_120, message: { type: 'tool.approval', requestId: 'r1', approved: false, reason: 'not that file', fingerprint: '' } }],
  refused: [{ index: 4, issue: 'unknown-call', reason: 'no call c9' }],
};

/** An imported recording (a bug report): the refused frame and the denied approval, as seen live. */
export const ImportedRecording: Story = {
  args: { client: createToolgate(), initialRecording: RECORDING },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await canvas.findByText(/Showing the given recording/);
    const events = canvas.getByRole('list', { name: 'Events' });
    await userEvent.click(within(events).getByText(/page\/approval c1/));
    const approval = canvas.getByRole('region', { name: 'Approval' });
    await waitFor(() => expect(approval.textContent).toContain('not that file'));
    await userEvent.click(canvas.getByLabelText('Refused only'));
    await waitFor(() => expect(within(events).getAllByRole('button')).toHaveLength(1));
  },
};
