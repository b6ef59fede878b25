import { useState } from 'react';
import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, userEvent, waitFor, within } from 'storybook/test';
import { ConfirmToolDialogApprove, ConfirmToolDialogArguments, ConfirmToolDialogContent, ConfirmToolDialogDeny, ConfirmToolDialogDescription, ConfirmToolDialogFingerprint, ConfirmToolDialogOverlay, ConfirmToolDialogPortal, ConfirmToolDialogQueueCount, ConfirmToolDialogRoot, ConfirmToolDialogTitle, ToolgateProvider, useConfirmToolDialog, useToolConfirmation, type JsonValue } from 'toolgate';
import { fingerprintJson } from 'toolgate/json';
import { createScriptedRoom } from 'toolgate/testing';
import { Frame } from '../support/scenarios';
import { ROOM_DELAY_MS, describeOutcome, descriptors, page, storySpeed } from './support';

interface Args {
  /** How fast the room answers: 1 is real time (instant when run as a test). */
  speed: number;
}

/**
 * `<ConfirmToolDialog />` is `ConfirmToolDialogRoot` with every part in place. The parts are
 * there to lay the same dialog out your own way: here the queue count and the fingerprint lead,
 * the arguments follow, and Approve comes before Deny, under words of the page's own. A part of
 * the page's own (the risk line) reads the same request through `useConfirmToolDialog`. The
 * rules come with the root and the content, whatever the layout: focus starts on Deny, Escape
 * denies, a click outside does nothing, one approval runs once.
 */
const meta = {
  title: 'Confirm/Composed from parts',
  args: { speed: 1 },
  argTypes: { speed: { control: { type: 'range', min: 0.25, max: 8, step: 0.25 } } },
  parameters: { layout: 'padded' },
} satisfies Meta<Args>;
export default meta;
type Story = StoryObj<Args>;

const requests = [
  { toolName: 'transfer', arguments: { to: 'DE89 3704 0044 0532 0130 00', amount: 1250, currency: 'EUR' }, descriptor: descriptors.highWrite },
  { toolName: 'write_file', arguments: { path: 'notes/plan.md', content: '# Plan' }, descriptor: descriptors.mediumWrite },
] as const;

/** A line of the page's own inside the dialog, from the same request. */
function RiskLine() {
  const { descriptor, labels, status } = useConfirmToolDialog();
  return (
    <p className="composed-risk" style={{ margin: 0 }}>
      {labels.all.risk[descriptor.risk]} · {labels.confirm.status[status]}
    </p>
  );
}

/** The same dialog, laid out another way. */
function CompactDialog() {
  return (
    <ConfirmToolDialogRoot>
      <ConfirmToolDialogPortal>
        <ConfirmToolDialogOverlay />
        <ConfirmToolDialogContent className="composed-dialog">
          <ConfirmToolDialogQueueCount />
          <div style={{ display: 'flex', gap: '0.5rem', alignItems: 'baseline', flexWrap: 'wrap' }}>
            <ConfirmToolDialogTitle />
            <ConfirmToolDialogFingerprint title="Fingerprint of the arguments" />
          </div>
          <ConfirmToolDialogDescription>Compare the fingerprint with the one your bank shows.</ConfirmToolDialogDescription>
          <RiskLine />
          <ConfirmToolDialogArguments />
          <div className="toolgate-confirm-actions" style={{ justifyContent: 'flex-start' }}>
            <ConfirmToolDialogApprove>Yes, do it</ConfirmToolDialogApprove>
            <ConfirmToolDialogDeny>Not now</ConfirmToolDialogDeny>
          </div>
        </ConfirmToolDialogContent>
      </ConfirmToolDialogPortal>
    </ConfirmToolDialogRoot>
  );
}

function QueueButton() {
  const { request } = useToolConfirmation();
  const [outcomes, setOutcomes] = useState<string[]>([]);
  return (
    <>
      <p style={{ margin: 0 }}>
        <button
          type="button"
          className="toolgate-button"
          onClick={() => {
            for (const item of requests) {
              void request({ toolName: item.toolName, arguments: item.arguments, descriptor: item.descriptor }).then((outcome) =>
                setOutcomes((previous) => [...previous, `${item.toolName}: ${describeOutcome(outcome)}`]),
              );
            }
          }}
        >
          Queue {requests.length} requests
        </button>
      </p>
      <output aria-label="Outcomes" data-testid="outcomes" style={{ whiteSpace: 'pre-wrap' }}>
        {outcomes.length === 0 ? 'No outcome yet' : outcomes.join('\n')}
      </output>
    </>
  );
}

function ComposedPage({ speed }: Args) {
  const [room] = useState(() => createScriptedRoom({ delayMs: ROOM_DELAY_MS, speed: storySpeed(speed) }));
  return (
    <ToolgateProvider room={room}>
      <Frame>
        <QueueButton />
        <CompactDialog />
      </Frame>
    </ToolgateProvider>
  );
}

/**
 * Two requests through the provider's queue, shown one at a time in the composed layout: the
 * first is approved with its own "Yes, do it", the second denied with Escape.
 */
export const CompactLayout: Story = {
  render: ({ speed }) => <ComposedPage key={speed} speed={speed} />,
  play: async ({ canvasElement }) => {
    const body = page(canvasElement);
    await userEvent.click(body.getByRole('button', { name: 'Queue 2 requests' }));
    const dialog = await body.findByRole('dialog', { name: 'Transfer money' });
    await waitFor(() => expect(dialog).toHaveAttribute('data-status', 'reviewing'));
    const inside = within(dialog);
    await expect(dialog).toHaveAccessibleDescription('Compare the fingerprint with the one your bank shows.');
    await expect(inside.getByText('1 more waiting')).toBeVisible();
    await expect(inside.getByText('High risk · Waiting for your decision')).toBeVisible();
    const expected = await fingerprintJson(requests[0].arguments as unknown as JsonValue);
    await expect(dialog.querySelector('.toolgate-confirm-fingerprint')).toHaveTextContent(expected.short);
    await expect(inside.getByRole('group', { name: 'Arguments' })).toHaveTextContent('DE89 3704');
    // Approve comes first in this layout, but focus still starts on the safe choice.
    await waitFor(() => expect(inside.getByRole('button', { name: 'Not now' })).toHaveFocus());
    await userEvent.click(inside.getByRole('button', { name: 'Yes, do it' }));
    const next = await body.findByRole('dialog', { name: 'Write a file' });
    await waitFor(() => expect(next).toHaveAttribute('data-status', 'reviewing'));
    await expect(within(next).queryByText(/more waiting/)).toBeNull();
    await waitFor(() => expect(within(next).getByRole('button', { name: 'Not now' })).toHaveFocus());
    await userEvent.keyboard('{Escape}');
    await waitFor(() => expect(body.queryByRole('dialog')).toBeNull());
    await waitFor(() => expect(canvasElement.querySelector('[data-testid="outcomes"]')).toHaveTextContent(/transfer: done/));
    await expect(canvasElement.querySelector('[data-testid="outcomes"]')).toHaveTextContent(/write_file: denied/);
  },
};
