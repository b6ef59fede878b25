import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect } from 'storybook/test';
import { ToolStatusBadge } from 'toolgate';
import { Frame } from './support/scenarios';

/** A call's status in words, coloured by outcome (`data-status`, `data-outcome`). */
const meta = {
  title: 'Components/ToolStatusBadge',
  component: ToolStatusBadge,
  tags: ['autodocs'],
  decorators: [(Story) => <Frame>{Story()}</Frame>],
  argTypes: {
    status: { control: 'select', options: ['pending', 'streaming', 'issued', 'settled', 'cancelled', 'failed'] },
    code: { control: 'select', options: [undefined, 'INTERRUPTED', 'REJECTED', 'INVALID', 'TIMEOUT', 'FAILED'] },
    approval: { control: 'select', options: [undefined, 'awaiting', 'approved', 'denied', 'expired'] },
    appStatus: { control: 'select', options: [undefined, 'queued', 'validating', 'awaiting-approval', 'running'] },
  },
} satisfies Meta<typeof ToolStatusBadge>;
export default meta;
type Story = StoryObj<typeof meta>;

const says = (text: string, outcome: string): Story['play'] => async ({ canvas }) => {
  await expect(canvas.getByText(text)).toHaveAttribute('data-outcome', outcome);
};

export const Pending: Story = { args: { status: 'pending' }, play: says('Waiting', 'open') };
export const Streaming: Story = { args: { status: 'streaming' }, play: says('Writing arguments', 'open') };
export const Issued: Story = { args: { status: 'issued' }, play: says('Running', 'open') };
/** Issued, but waiting for a person: never "Running" until they approve. */
export const AwaitingApproval: Story = { args: { status: 'issued', approval: 'awaiting' }, play: says('Awaiting approval', 'open') };
/** An app tool's call behind another call of the page: not running yet. */
export const AppCallQueued: Story = { args: { status: 'issued', appStatus: 'queued' }, play: says('Waiting its turn', 'open') };
/** An app tool's call whose arguments its validator is still checking: not running yet. */
export const AppCallValidating: Story = { args: { status: 'issued', appStatus: 'validating' }, play: says('Checking arguments', 'open') };
export const SettledOk: Story = { args: { status: 'settled', ok: true }, play: says('Done', 'ok') };
export const SettledInterrupted: Story = { args: { status: 'settled', ok: false, code: 'INTERRUPTED' }, play: says('Interrupted', 'error') };
export const SettledRejected: Story = { args: { status: 'settled', ok: false, code: 'REJECTED' }, play: says('Rejected', 'error') };
export const SettledInvalid: Story = { args: { status: 'settled', ok: false, code: 'INVALID' }, play: says('Invalid arguments', 'error') };
export const SettledTimeout: Story = { args: { status: 'settled', ok: false, code: 'TIMEOUT' }, play: says('Timed out', 'error') };
export const SettledFailed: Story = { args: { status: 'settled', ok: false, code: 'FAILED' }, play: says('Failed', 'error') };
export const SettledUnknownCode: Story = { args: { status: 'settled', ok: false, code: 'QUOTA' }, play: says('Failed (QUOTA)', 'error') };
export const Cancelled: Story = { args: { status: 'cancelled' }, play: says('Cancelled', 'cancelled') };
export const Failed: Story = { args: { status: 'failed' }, play: says('Stopped', 'failed') };
