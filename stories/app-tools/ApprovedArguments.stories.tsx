import { useRef, useState } from 'react';
import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, userEvent, waitFor, within } from 'storybook/test';
import { z } from 'zod';
import { ConfirmToolDialog, useAppTool, type JsonValue } from 'toolgate';
import { fingerprintJson } from 'toolgate/json';
import type { ScriptedSession } from 'toolgate/testing';
import { AppToolCard, ScriptedApp } from './support';

interface Args {
  /** How fast the scripted session plays: 1 is real time (instant when run as a test). */
  speed: number;
}

/**
 * What runs is what was shown. `transfer` asks before it runs, and its validator (zod) trims and
 * upper-cases the payee, turns the text amount into a number and adds a default currency. The
 * person reviews the validator's output in `<ConfirmToolDialog>`, with its fingerprint; the tool's
 * `run` then receives exactly that frozen snapshot, even when the caller changes its own
 * arguments object while the dialog is open. The page lists what `run` received and the
 * fingerprint of it, to compare with the dialog's.
 */
const meta = {
  title: 'App tools/Approved arguments',
  args: { speed: 1 },
  argTypes: { speed: { control: { type: 'range', min: 0.25, max: 8, step: 0.25 } } },
  parameters: { layout: 'padded' },
} satisfies Meta<Args>;
export default meta;
type Story = StoryObj<Args>;

interface Ran {
  readonly json: string;
  readonly frozen: boolean;
  readonly fingerprint: string | null;
}

function isDeepFrozen(value: unknown): boolean {
  if (typeof value !== 'object' || value === null) return true;
  return Object.isFrozen(value) && Object.values(value).every(isDeepFrozen);
}

function TransferPage({ session }: { session: ScriptedSession }) {
  // The caller's own object: the session hands this very object to the page.
  const callerArgs = useRef<{ to: string; amount: string } | null>(null);
  const [ran, setRan] = useState<Ran | null>(null);
  const view = useAppTool({
    name: 'transfer',
    description: 'Transfer money to a payee',
    validate: z.object({
      to: z.string().transform((s) => s.trim().toUpperCase()),
      amount: z.coerce.number(),
      currency: z.string().default('USD'),
    }),
    confirm: true,
    run: async (args) => {
      const received = args as unknown as JsonValue;
      setRan({ json: JSON.stringify(received), frozen: isDeepFrozen(received), fingerprint: null });
      const { hex } = await fingerprintJson(received);
      setRan({ json: JSON.stringify(received), frozen: isDeepFrozen(received), fingerprint: hex });
      return { sent: args.amount, to: args.to };
    },
  });
  return (
    <div style={{ display: 'grid', gap: '0.75rem', maxWidth: '40rem' }}>
      <p style={{ margin: 0, display: 'flex', gap: '0.5rem', flexWrap: 'wrap' }}>
        <button
          type="button"
          className="toolgate-button"
          onClick={() => {
            callerArgs.current = { to: '  bob', amount: '5e3' };
            void session.callTool({ callId: 'pay-1', turnId: 'turn-1', name: 'transfer', arguments: callerArgs.current });
          }}
        >
          Ask for the transfer
        </button>
        <button
          type="button"
          className="toolgate-button"
          onClick={() => {
            if (callerArgs.current === null) return;
            callerArgs.current.to = 'mallory';
            callerArgs.current.amount = '5000000';
          }}
        >
          Change the caller&apos;s object
        </button>
      </p>
      <AppToolCard view={view} title="Transfer" />
      <section aria-label="What run received">
        <h3 style={{ margin: 0, fontSize: '1rem' }}>What run received</h3>
        {ran === null ? (
          <p data-testid="ran">Nothing ran yet</p>
        ) : (
          <dl style={{ margin: 0 }}>
            <dt>Arguments</dt>
            <dd data-testid="ran" style={{ margin: 0, fontFamily: 'var(--toolgate-mono)' }}>
              {ran.json}
            </dd>
            <dt>Deep-frozen</dt>
            <dd data-testid="frozen" style={{ margin: 0 }}>
              {ran.frozen ? 'yes' : 'no'}
            </dd>
            <dt>Fingerprint</dt>
            <dd data-testid="ran-fingerprint" data-fingerprint={ran.fingerprint ?? undefined} style={{ margin: 0, fontFamily: 'var(--toolgate-mono)' }}>
              {ran.fingerprint ?? '…'}
            </dd>
          </dl>
        )}
      </section>
      <ConfirmToolDialog />
    </div>
  );
}

/**
 * The person reviews `{ to: "BOB", amount: 5000, currency: "USD" }` (the validator's output, not
 * the model's `{ to: "  bob", amount: "5e3" }`); the caller changes its object during the review;
 * `run` receives exactly what the dialog showed, with the same fingerprint.
 */
export const RunsWhatTheDialogShowed: Story = {
  render: ({ speed }) => (
    <ScriptedApp key={speed} speed={speed}>
      {(session) => <TransferPage session={session} />}
    </ScriptedApp>
  ),
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    const body = within(canvasElement.ownerDocument.body);
    await userEvent.click(canvas.getByRole('button', { name: 'Ask for the transfer' }));
    const dialog = await body.findByRole('dialog');
    await waitFor(() => expect(dialog).toHaveAttribute('data-status', 'reviewing'));

    const preview = dialog.querySelector('.toolgate-confirm-args') as HTMLElement;
    // The tree shows keys and values (quotes are drawn by the stylesheet): the validator's output, all of it.
    const reviewed = 'toBOBamount5000currencyUSD';
    await expect(preview.textContent).toBe(reviewed);
    const shown = dialog.querySelector('.toolgate-confirm-fingerprint')?.getAttribute('data-fingerprint') ?? '';
    await expect(shown).toMatch(/^[0-9a-f]{64}$/);

    // The caller's code changes its own object while the person reviews (the modal dialog hides
    // the page from people, not from code): nothing shown changes.
    canvas.getByRole('button', { name: "Change the caller's object", hidden: true }).click();
    await expect(preview.textContent).toBe(reviewed);
    await expect(dialog.querySelector('.toolgate-confirm-fingerprint')?.getAttribute('data-fingerprint')).toBe(shown);

    await userEvent.click(within(dialog).getByRole('button', { name: 'Approve' }));
    await waitFor(() => expect(canvas.getByTestId('ran-fingerprint')).toHaveAttribute('data-fingerprint', shown));
    await expect(canvas.getByTestId('ran')).toHaveTextContent('{"to":"BOB","amount":5000,"currency":"USD"}');
    await expect(canvas.getByTestId('frozen')).toHaveTextContent('yes');
    const card = canvas.getByRole('article', { name: 'Transfer' });
    await waitFor(() => expect(within(card).getByTestId('last-result')).toHaveTextContent('pay-1 → ok: {"sent":5000,"to":"BOB"}'));
  },
};
