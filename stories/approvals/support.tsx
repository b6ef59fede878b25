/**
 * Shared pieces of the approvals stories (edit then approve, standing grants, several at once,
 * expiry): a page that owns one confirmation controller and a clock, proposes requests with a
 * button, and lists what ran (what `onApprove` heard) and every outcome, so play functions assert
 * the end state the controller recorded. Not a story file itself.
 */
import { useEffect, useState, type ReactNode } from 'react';
import { expect, userEvent, waitFor, within } from 'storybook/test';
import { ToolgateProvider, createConfirmationController, type ConfirmationController, type ConfirmationEditing, type ConfirmationOutcome, type ToolDescriptor } from 'toolgate';
import { type ApprovalPolicy } from 'toolgate/policy';
import { type ToolDefinition } from 'toolgate/server';
import { createManualClock, type ManualClock } from 'toolgate/testing';
import { Frame, storySpeed } from '../support/scenarios';

export { storySpeed };

/** A fixed start, so times read the same in every run. */
export const START = Date.UTC(2026, 11, 1, 12);

export const descriptors = {
  search: { title: 'Search the docs', effect: 'read', risk: 'low', requiresConfirmation: true },
  write: { title: 'Write a file', effect: 'write', risk: 'medium', requiresConfirmation: true },
  // Each tool its own descriptor: a request's heading is its tool's title, never another tool's.
  payment: { title: 'Send a payment', effect: 'write', risk: 'medium', requiresConfirmation: true },
  deploy: { title: 'Deploy a release', effect: 'write', risk: 'medium', requiresConfirmation: true },
  transfer: { title: 'Transfer money', effect: 'write', risk: 'high', requiresConfirmation: true },
} satisfies Record<string, ToolDescriptor>;

export const transferSchema = {
  type: 'object',
  properties: {
    to: { type: 'string', title: 'Recipient' },
    amount: { type: 'number', title: 'Amount', description: 'In euros, at most 1000', exclusiveMinimum: 0 },
    currency: { enum: ['EUR', 'USD'], title: 'Currency' },
    instant: { type: 'boolean', title: 'Instant transfer' },
    note: { type: 'object', title: 'Note', properties: { reference: { type: 'string', title: 'Reference' } } },
  },
  required: ['to', 'amount', 'currency'],
};

/** The tool's own validator: a rule the schema does not say (a second signature above 1000). */
export const transferEditing: ConfirmationEditing = {
  schema: transferSchema,
  validate: (draft) =>
    typeof draft === 'object' && draft !== null && !Array.isArray(draft) && Number((draft as Record<string, unknown>).amount) > 1000
      ? { ok: false, issues: [{ path: ['amount'], message: 'At most 1000 without a second signature' }] }
      : { ok: true },
};

export interface Proposal {
  toolName: string;
  arguments: unknown;
  descriptor?: ToolDescriptor;
  editable?: boolean | ConfirmationEditing;
  /** Ms after the page's clock start. */
  expiresIn?: number;
  turnId?: string;
  /** `onApprove` never answers (the call stays in flight): a state to look at. */
  hold?: boolean;
  /** The tool's definition as the request gives it (a standing grant binds to it). */
  definition?: ToolDefinition;
}

/**
 * A manual clock: under test the play function moves it (with the page's "Wait" buttons); when
 * watched it also ticks by itself, once a second at the story's speed.
 */
export function useStoryClock(speed: number): ManualClock {
  const [clock] = useState(() => createManualClock({ start: START }));
  useEffect(() => {
    const pace = storySpeed(speed);
    if (!Number.isFinite(pace)) return;
    const timer = setInterval(() => void clock.advance(1000), 1000 / pace);
    return () => clearInterval(timer);
  }, [clock, speed]);
  return clock;
}

const describeOutcome = (outcome: ConfirmationOutcome): string =>
  outcome.status === 'done' || outcome.status === 'expired'
    ? outcome.status
    : outcome.status === 'responded'
      ? `responded: ${JSON.stringify(outcome.output)}`
      : outcome.status === 'denied' || outcome.status === 'cancelled'
        ? `${outcome.status}${outcome.reason ? `: ${outcome.reason}` : ''}`
        : `${outcome.status}: ${outcome.reason}`;

/**
 * The page: "Propose" queues `proposals` on its controller; what ran and every outcome are listed
 * beside the kit's views (`children`, inside a provider with that controller).
 */
export function ApprovalsPage({
  proposals,
  speed,
  children,
  extra,
  policy,
}: {
  proposals: readonly Proposal[];
  speed: number;
  children: (controller: ConfirmationController, clock: ManualClock) => ReactNode;
  /** More page controls, given the controller. */
  extra?: (controller: ConfirmationController) => ReactNode;
  /** Policy rules the page's controller answers requests by (none by default). */
  policy?: ApprovalPolicy;
}) {
  const clock = useStoryClock(speed);
  const [controller] = useState(() => createConfirmationController({ clock, ...(policy === undefined ? {} : { policy }) }));
  const [ran, setRan] = useState<string[]>([]);
  const [outcomes, setOutcomes] = useState<string[]>([]);
  // How many "Wait" presses have fired all their timers (each re-renders the countdown): a play
  // function waits on this, not on time, before it reads what the page shows. A count, not the
  // clock's reading: when the story is opened in Storybook the clock also ticks by itself.
  const [waits, setWaits] = useState(0);
  const propose = () => {
    for (const item of proposals) {
      void controller
        .request({
          toolName: item.toolName,
          arguments: item.arguments,
          descriptor: item.descriptor ?? null,
          ...(item.editable === undefined ? {} : { editable: item.editable }),
          ...(item.expiresIn === undefined ? {} : { expiresAt: clock.now() + item.expiresIn }),
          ...(item.turnId === undefined ? {} : { turnId: item.turnId }),
          ...(item.definition === undefined ? {} : { definition: item.definition }),
          onApprove: (args, context) => {
            setRan((previous) => [...previous, `${item.toolName} ${JSON.stringify(args)}${context.edited ? ' (edited)' : ''}${context.decidedBy?.by !== 'rule' ? '' : context.decidedBy.origin === 'grant' ? ' (by a grant)' : ` (by rule ${context.decidedBy.ruleId})`}`]);
            return item.hold ? new Promise(() => {}) : 'ok';
          },
        })
        .then((outcome) => setOutcomes((previous) => [...previous, `${item.toolName}: ${describeOutcome(outcome)}`]));
    }
  };
  return (
    <ToolgateProvider confirmations={controller}>
      <Frame>
        <p style={{ margin: 0, display: 'flex', gap: '0.5rem', flexWrap: 'wrap' }}>
          <button type="button" className="toolgate-button" onClick={propose}>
            Propose {proposals.length === 1 ? 'the request' : `${proposals.length} requests`}
          </button>
          <button type="button" className="toolgate-button" data-waits={waits} onClick={() => void clock.advance(30_000).then(() => setWaits((count) => count + 1))}>
            Wait 30 seconds
          </button>
          {extra?.(controller)}
        </p>
        <output aria-label="Ran" data-testid="ran" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
          {ran.length === 0 ? 'Nothing ran' : ran.join('\n')}
        </output>
        <output aria-label="Outcomes" data-testid="outcomes" style={{ whiteSpace: 'pre-wrap' }}>
          {outcomes.length === 0 ? 'No outcome yet' : outcomes.join('\n')}
        </output>
        {children(controller, clock)}
      </Frame>
    </ToolgateProvider>
  );
}

/* ------------------------------------------------------------ play helpers */

/** The whole document: Radix portals the dialog into `document.body`, outside the canvas. */
export const page = (canvasElement: HTMLElement) => within(canvasElement.ownerDocument.body);

/** Press a button by keyboard: focus it, then Enter. */
export async function press(button: HTMLElement): Promise<void> {
  button.focus();
  await userEvent.keyboard('{Enter}');
}

/** Propose the page's requests (by keyboard) and wait for the dialog to be under review. */
export async function proposeAndReview(canvasElement: HTMLElement): Promise<HTMLElement> {
  const body = page(canvasElement);
  await press(body.getByRole('button', { name: /^Propose/ }));
  const dialog = await body.findByRole('dialog');
  await untilStatus(dialog, 'reviewing');
  return dialog;
}

export async function untilStatus(dialog: HTMLElement, status: string): Promise<void> {
  await waitFor(() => expect(dialog).toHaveAttribute('data-status', status));
}

/**
 * Press the page's "Wait 30 seconds" directly (the page behind a modal dialog is inert) and wait
 * until the clock has moved and every timer due in between has fired.
 */
export async function waitOnPage(canvasElement: HTMLElement): Promise<void> {
  const wait = page(canvasElement).getByRole('button', { name: 'Wait 30 seconds', hidden: true });
  const done = Number(wait.getAttribute('data-waits')) + 1;
  wait.click();
  await waitFor(() => expect(wait).toHaveAttribute('data-waits', String(done)));
}

/** The seconds a dialog's countdown shows ("Expires in 1:05" is 65), or `NaN` when it shows none. */
export function secondsShown(dialog: HTMLElement): number {
  const match = /Expires in (\d+):(\d\d)/.exec(dialog.querySelector('.toolgate-confirm-expiry')?.textContent ?? '');
  return match ? Number(match[1]) * 60 + Number(match[2]) : Number.NaN;
}

/** What the page says ran (readable while a modal dialog hides the page from assistive technology). */
export const ranText = (canvasElement: HTMLElement): string => canvasElement.querySelector('[data-testid="ran"]')?.textContent ?? '';
export const outcomesText = (canvasElement: HTMLElement): string => canvasElement.querySelector('[data-testid="outcomes"]')?.textContent ?? '';
