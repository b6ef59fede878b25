import type { Meta, StoryObj } from '@storybook/react-vite';
import { useState } from 'react';
import { expect, userEvent, waitFor, within } from 'storybook/test';
import { ConfirmToolDialog, ToolCallList, ToolgateProvider, createToolgate } from 'toolgate';
import { type PolicyDecisionReport } from 'toolgate/policy';
import { createApprovalPolicy, type PolicyRule } from 'toolgate/policy';
import { callEvents, createScriptedSession } from 'toolgate/testing';
import { Frame } from '../support/scenarios';
import { ApprovalsPage, descriptors, outcomesText, page, press, proposeAndReview, ranText, untilStatus, type Proposal } from './support';

interface Args {
  /** How fast the page's clock runs when watched (the play functions do not wait on it). */
  speed: number;
}

/**
 * Policies in the approvals: rules (plain data) answer requests before a person sees them and name
 * themselves on each answer; the dialog offers scoped grants that preview the requests waiting
 * that each would answer; a policy in shadow mode only says what it would do. Each story runs a
 * real confirmation controller with a real policy from `toolgate/policy`.
 */
const meta = {
  title: 'Confirm/Policies',
  args: { speed: 1 },
  argTypes: { speed: { control: { type: 'range', min: 0.25, max: 8, step: 0.25 } } },
  parameters: { layout: 'padded' },
} satisfies Meta<Args>;
export default meta;
type Story = StoryObj<Args>;

const mail = { title: 'Send an email', effect: 'write', risk: 'low', requiresConfirmation: true } as const;
const toAda: Proposal = { toolName: 'send_mail', arguments: { to: 'ada@example.test', subject: 'Minutes' }, descriptor: mail };
const toAdaAgain: Proposal = { toolName: 'send_mail', arguments: { to: 'ada@example.test', subject: 'Agenda' }, descriptor: mail };
const toBob: Proposal = { toolName: 'send_mail', arguments: { to: 'bob@example.test', subject: 'Minutes' }, descriptor: mail };
const search: Proposal = { toolName: 'search_docs', arguments: { q: 'retention' }, descriptor: descriptors.search };

const rule = (id: string, decision: PolicyRule['decision'], tools: string[], extra: Partial<PolicyRule> = {}): PolicyRule => ({
  id,
  decision,
  tools,
  scope: { kind: 'session' },
  origin: 'app',
  ...extra,
});

function PolicyDialog({ speed, proposals, policy }: { speed: number; proposals: readonly Proposal[]; policy: ReturnType<typeof createApprovalPolicy> }) {
  return (
    <ApprovalsPage speed={speed} proposals={proposals} policy={policy}>
      {(controller, clock) => <ConfirmToolDialog controller={controller} clock={clock} />}
    </ApprovalsPage>
  );
}

const scopedGroup = (dialog: HTMLElement) => within(dialog).findByRole('group', { name: 'Allow more like this' });
const toAdaButton = 'Allow when to is "ada@example.test", for an hour';

/**
 * "Allow when `to` is ada@example.test, for an hour": the person approves the mail they see, and
 * the rule they made answers the other mail to Ada waiting behind it. The mail to Bob is asked next.
 */
export const ScopedGrant: Story = {
  render: ({ speed }) => <PolicyDialog speed={speed} proposals={[toAda, toAdaAgain, toBob]} policy={createApprovalPolicy()} />,
  play: async ({ canvasElement }) => {
    const dialog = await proposeAndReview(canvasElement);
    const group = await scopedGroup(dialog);
    const button = within(group).getByRole('button', { name: toAdaButton });
    await waitFor(() => expect(button).toHaveAccessibleDescription('Also answers 1 waiting request: send_mail'));
    await press(button);
    await waitFor(() => expect(ranText(canvasElement).split('\n')).toHaveLength(2));
    await expect(ranText(canvasElement)).toMatch(/^send_mail \{"to":"ada@example.test","subject":"Minutes"\}\nsend_mail \{"to":"ada@example.test","subject":"Agenda"\} \(by rule scoped-send_mail-to-hour-\d+\)$/);
    // The mail to Bob is not what the person allowed: it is asked.
    await waitFor(() => expect(within(page(canvasElement).getByRole('dialog')).getByRole('button', { name: 'Allow when to is "bob@example.test", for an hour' })).toBeVisible());
    await untilStatus(page(canvasElement).getByRole('dialog'), 'reviewing');
  },
};

/**
 * Before the person picks a scoped grant, each one says which of the waiting requests it would
 * also answer: how many, and their tools. Tab reaches each, and its preview is its description.
 */
export const RulePreview: Story = {
  render: ({ speed }) => <PolicyDialog speed={speed} proposals={[toAda, toAdaAgain, toBob, search]} policy={createApprovalPolicy()} />,
  play: async ({ canvasElement }) => {
    const dialog = await proposeAndReview(canvasElement);
    const group = await scopedGroup(dialog);
    const session = within(group).getByRole('button', { name: 'Allow send_mail for this session' });
    await waitFor(() => expect(session).toHaveAccessibleDescription('Also answers 2 waiting requests: send_mail, send_mail'));
    await expect(within(group).getByRole('button', { name: toAdaButton })).toHaveAccessibleDescription('Also answers 1 waiting request: send_mail');
    await expect(within(group).getByRole('button', { name: 'Allow when subject is "Minutes", for an hour' })).toHaveAccessibleDescription(
      'Also answers 1 waiting request: send_mail',
    );
    // By keyboard: from the first scoped grant, Tab goes to the next one.
    const buttons = within(group).getAllByRole('button');
    buttons[0]!.focus();
    await userEvent.tab();
    await expect(buttons[1]).toHaveFocus();
    await expect(ranText(canvasElement)).toBe('Nothing ran');
  },
};

/** The page beside the dialog lists what a policy in shadow mode would have decided. */
function ShadowPage({ speed }: { speed: number }) {
  const [reports, setReports] = useState<string[]>([]);
  const [policy] = useState(() =>
    createApprovalPolicy({
      mode: 'shadow',
      rules: [rule('no-bob', 'deny', ['send_mail'], { when: [{ pointer: '/to', equals: 'bob@example.test' }] })],
      onDecision: (report: PolicyDecisionReport) =>
        setReports((previous) => [...previous, `${report.request.toolName}: would ${report.result.decision}${report.result.ruleId ? ` by ${report.result.ruleId}` : ''}`]),
    }),
  );
  return (
    <>
      <output aria-label="Shadow decisions" data-testid="shadow" style={{ whiteSpace: 'pre-wrap' }}>
        {reports.length === 0 ? 'No shadow decision yet' : reports.join('\n')}
      </output>
      <PolicyDialog speed={speed} proposals={[toBob]} policy={policy} />
    </>
  );
}

/**
 * Shadow mode: the rule would deny the mail to Bob, and the page hears so; the person is still asked,
 * and approves it.
 */
export const ShadowDecision: Story = {
  render: ({ speed }) => <ShadowPage speed={speed} />,
  play: async ({ canvasElement }) => {
    const dialog = await proposeAndReview(canvasElement);
    const shadow = canvasElement.querySelector('[data-testid="shadow"]');
    await waitFor(() => expect(shadow).toHaveTextContent('send_mail: would deny by no-bob'));
    await press(within(dialog).getByRole('button', { name: 'Approve' }));
    await waitFor(() => expect(outcomesText(canvasElement)).toBe('send_mail: done'));
    await expect(ranText(canvasElement)).toBe('send_mail {"to":"bob@example.test","subject":"Minutes"}');
  },
};

/** A turn whose two approval requests the app's rules answer: each card says which rule did. */
function AnsweredPage() {
  const [{ client, session }] = useState(() => {
    const policy = createApprovalPolicy({
      rules: [
        rule('read-docs', 'allow', ['search_docs'], { label: 'Reading the docs' }),
        rule('no-prod', 'deny', ['deploy_service'], { when: [{ pointer: '/env', equals: 'prod' }] }),
      ],
    });
    const made = { client: createToolgate({ policy }), session: createScriptedSession() };
    made.client.connect(made.session);
    return made;
  });
  const run = () => {
    for (const event of callEvents('c1', { name: 'search_docs', arguments: { q: 'retention' }, outcome: 'open' })) session.emit(event);
    for (const event of callEvents('c2', { name: 'deploy_service', arguments: { env: 'prod' }, outcome: 'open' })) session.emit(event);
    session.emit({ type: 'tool.approval-request', requestId: 'r1', callId: 'c1', name: 'search_docs', arguments: { q: 'retention' }, risk: 'low', effect: 'read' });
    session.emit({ type: 'tool.approval-request', requestId: 'r2', callId: 'c2', name: 'deploy_service', arguments: { env: 'prod' }, risk: 'medium' });
  };
  return (
    <ToolgateProvider client={client}>
      <Frame>
        <p style={{ margin: 0 }}>
          <button type="button" className="toolgate-button" onClick={run}>
            Run the turn
          </button>
        </p>
        <ToolCallList />
        <ConfirmToolDialog />
      </Frame>
    </ToolgateProvider>
  );
}

/** "Allowed by Reading the docs" and "Denied by no-prod": no dialog opens, and each card names its rule. */
export const AnsweredByRule: Story = {
  render: () => <AnsweredPage />,
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await press(canvas.getByRole('button', { name: 'Run the turn' }));
    await waitFor(() => expect(canvas.getByText('Allowed by Reading the docs')).toBeVisible());
    await waitFor(() => expect(canvas.getByText('Denied by no-prod')).toBeVisible());
    await expect(page(canvasElement).queryByRole('dialog')).toBeNull();
  },
};
