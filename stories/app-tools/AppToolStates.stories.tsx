import { useRef, useSyncExternalStore, type CSSProperties } from 'react';
import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, userEvent, waitFor, within } from 'storybook/test';
import { z } from 'zod';
import { useAppTool, useAppTools, useConfirmationController, type JsonValue } from 'toolgate';
import { step, type ScriptedSession, type ScriptStep } from 'toolgate/testing';
import { AppToolCard, ScriptedApp, describeResult } from './support';

interface Args {
  /** How fast the scripted session plays: 1 is real time (instant when run as a test). */
  speed: number;
}

/**
 * App tools run in the page, one at a time, in arrival order. Each card shows one tool's live
 * state as `useAppTool` returns it: `idle`, `queued` (with how many calls wait) or `running`
 * (with the current call's id, arguments and progress), and its last result. A scripted session
 * from `toolgate/testing` plays the server's side.
 */
const meta = {
  title: 'App tools/useAppTool',
  tags: ['autodocs'],
  args: { speed: 1 },
  argTypes: { speed: { control: { type: 'range', min: 0.25, max: 8, step: 0.25 } } },
  parameters: { layout: 'padded' },
} satisfies Meta<Args>;
export default meta;
type Story = StoryObj<Args>;

/* ------------------------------------------------------------------- tools */

const isStringArray = (value: JsonValue | undefined): value is readonly string[] =>
  Array.isArray(value) && value.every((item) => typeof item === 'string');

const swatch = (colour: string): CSSProperties => ({
  display: 'inline-block',
  width: '1rem',
  height: '1rem',
  borderRadius: '50%',
  background: colour,
  border: '1px solid var(--toolgate-border)',
  verticalAlign: 'middle',
});

/**
 * Two app tools of one page: `choose_colour` waits for the person to pick a colour (so it stays
 * running until they do), `apply_theme` applies one at once; `publish_theme` asks first.
 */
function ColourTools({ id }: { id: string }) {
  const waiting = useRef<{ callId: string; answer: (colour: string) => void } | null>(null);

  const chooser = useAppTool({
    name: 'choose_colour',
    description: 'Ask the person to choose one of a few colours',
    parameters: {
      type: 'object',
      required: ['question', 'options'],
      properties: { question: { type: 'string' }, options: { type: 'array', items: { type: 'string' } } },
    },
    validate: z.object({ question: z.string(), options: z.array(z.string()).min(2) }),
    run: (_args, { signal, callId, emit }) =>
      new Promise<string | null>((resolve) => {
        emit('Waiting for a choice');
        waiting.current = { callId, answer: resolve };
        signal.addEventListener(
          'abort',
          () => {
            waiting.current = null;
            resolve(null);
          },
          { once: true },
        );
      }),
  });

  const applier = useAppTool({
    name: 'apply_theme',
    description: 'Apply a colour theme to the page',
    validate: z.object({ colour: z.string() }),
    run: ({ colour }) => ({ applied: colour }),
  });

  const publisher = useAppTool({
    name: 'publish_theme',
    description: 'Publish the page theme for everyone',
    validate: z.object({ colour: z.string() }),
    confirm: true,
    run: ({ colour }) => ({ published: colour }),
  });

  const options = chooser.callId !== null && typeof chooser.arguments === 'object' && chooser.arguments !== null && !Array.isArray(chooser.arguments) ? (chooser.arguments as { options?: JsonValue }).options : undefined;
  const question = chooser.callId !== null && typeof chooser.arguments === 'object' && chooser.arguments !== null && !Array.isArray(chooser.arguments) ? (chooser.arguments as { question?: JsonValue }).question : undefined;

  return (
    <div style={{ display: 'grid', gap: '0.75rem', gridTemplateColumns: 'repeat(auto-fit, minmax(16rem, 1fr))' }} data-scenario={id}>
      <AppToolCard view={chooser} title={`Choose a colour (${id})`}>
        {chooser.status === 'running' && isStringArray(options) && (
          <fieldset style={{ border: 0, padding: 0, margin: 0, display: 'flex', gap: '0.5rem', flexWrap: 'wrap' }}>
            <legend style={{ marginBottom: '0.25rem' }}>{typeof question === 'string' ? question : 'Choose'}</legend>
            {options.map((colour) => (
              <button key={colour} type="button" className="toolgate-button" onClick={() => waiting.current?.answer(colour)}>
                <span style={swatch(colour)} aria-hidden="true" /> {colour}
              </button>
            ))}
          </fieldset>
        )}
      </AppToolCard>
      <AppToolCard view={applier} title={`Apply a theme (${id})`} />
      <AppToolCard view={publisher} title={`Publish a theme (${id})`}>
        {publisher.awaitingApproval && <ApprovalBar />}
      </AppToolCard>
      <AllTools id={id} />
    </div>
  );
}

/** Approve or deny the request the confirmation controller shows (the kit's dialog does this in an app). */
function ApprovalBar() {
  const controller = useConfirmationController();
  const current = useSyncExternalStore(controller.subscribe, () => controller.getState().current);
  if (current === null) return null;
  return (
    <div role="group" aria-label={`Approve ${current.toolName}?`} style={{ display: 'flex', gap: '0.5rem', alignItems: 'center' }}>
      <span>
        {current.toolName} {JSON.stringify(current.arguments)}
      </span>
      <button type="button" className="toolgate-button" onClick={() => controller.approve()} disabled={!current.can.approve}>
        Approve
      </button>
      <button type="button" className="toolgate-button" onClick={() => controller.deny('not now')} disabled={!current.can.deny}>
        Deny
      </button>
    </div>
  );
}

/** Every tool of the host at a glance, with `useAppTools`. */
function AllTools({ id }: { id: string }) {
  const tools = useAppTools();
  return (
    <table style={{ borderCollapse: 'collapse', alignSelf: 'start' }}>
      <caption style={{ textAlign: 'start', fontWeight: 600 }}>All app tools ({id})</caption>
      <thead>
        <tr>
          <th scope="col" style={{ textAlign: 'start', paddingInlineEnd: '1rem' }}>
            Tool
          </th>
          <th scope="col" style={{ textAlign: 'start', paddingInlineEnd: '1rem' }}>
            Status
          </th>
          <th scope="col" style={{ textAlign: 'start' }}>
            Last result
          </th>
        </tr>
      </thead>
      <tbody>
        {tools.map((tool) => (
          <tr key={tool.name} data-row={tool.name}>
            <td style={{ paddingInlineEnd: '1rem', fontFamily: 'var(--toolgate-mono)' }}>{tool.name}</td>
            <td style={{ paddingInlineEnd: '1rem' }}>
              {tool.status}
              {tool.queued > 0 ? ` (${tool.queued} waiting)` : ''}
            </td>
            <td>{tool.lastResult ? describeResult(tool.lastResult.result) : '—'}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/* ----------------------------------------------------------------- scripts */

const ask = (callId: string): ScriptStep =>
  step.call({ callId, turnId: 'turn-1', name: 'choose_colour', arguments: { question: 'Which colour for the header?', options: ['teal', 'orange', 'indigo'] } });
const apply = (callId: string, colour: string): ScriptStep => step.call({ callId, turnId: 'turn-1', name: 'apply_theme', arguments: { colour } });

const scripts = {
  idle: undefined,
  running: () => [ask('c1'), step.waitForResult('c1')],
  queued: () => [ask('c1'), step.delay(300), apply('a1', 'teal'), step.delay(300), apply('a2', 'indigo')],
  approval: () => [step.call({ callId: 'p1', turnId: 'turn-1', name: 'publish_theme', arguments: { colour: 'teal' } })],
} satisfies Record<string, ((session: ScriptedSession) => readonly ScriptStep[]) | undefined>;

const scenario = (id: keyof typeof scripts): Story['render'] =>
  function Render({ speed }) {
    return (
      // A new speed starts the scenario afresh.
      <ScriptedApp key={speed} script={scripts[id]} speed={speed}>
        <ColourTools id={id} />
      </ScriptedApp>
    );
  };

const cardOf = (root: HTMLElement, name: string, id: string) =>
  within(root).getByRole('article', { name: new RegExp(`^${name} \\(${id}\\)$`) });
const statusOf = (card: HTMLElement) => within(card).getByTestId('status');

/* ----------------------------------------------------------------- stories */

/** Registered, no call yet: every tool is idle and has no result. */
export const Idle: Story = {
  render: scenario('idle'),
  play: async ({ canvasElement }) => {
    for (const name of ['Choose a colour', 'Apply a theme', 'Publish a theme']) {
      const card = cardOf(canvasElement, name, 'idle');
      await expect(statusOf(card)).toHaveTextContent('Idle');
      await expect(within(card).getByTestId('call')).toHaveTextContent('none');
      await expect(within(card).getByTestId('last-result')).toHaveTextContent('none yet');
    }
    await expect(within(canvasElement).getByRole('table', { name: 'All app tools (idle)' })).toBeVisible();
  },
};

/** A call holds the slot: its id, arguments and progress show until the person answers. */
export const Running: Story = {
  render: scenario('running'),
  play: async ({ canvasElement }) => {
    const card = cardOf(canvasElement, 'Choose a colour', 'running');
    await waitFor(() => expect(statusOf(card)).toHaveTextContent('Running'));
    await expect(within(card).getByTestId('call')).toHaveTextContent('c1 (running)');
    await expect(within(card).getByTestId('progress')).toHaveTextContent('Waiting for a choice');
    await expect(within(card).getByText(/"options":\["teal","orange","indigo"\]/)).toBeVisible();

    await userEvent.click(within(card).getByRole('button', { name: 'teal' }));
    await waitFor(() => expect(statusOf(card)).toHaveTextContent('Idle'));
    await expect(within(card).getByTestId('last-result')).toHaveTextContent('c1 → ok: "teal"');
  },
};

/** One at a time, in arrival order: `apply_theme` waits while `choose_colour` runs. */
export const Queued: Story = {
  render: scenario('queued'),
  play: async ({ canvasElement }) => {
    const chooser = cardOf(canvasElement, 'Choose a colour', 'queued');
    const applier = cardOf(canvasElement, 'Apply a theme', 'queued');
    await waitFor(() => expect(statusOf(applier)).toHaveTextContent('Queued · 2 waiting'));
    await expect(statusOf(chooser)).toHaveTextContent('Running');
    await expect(within(canvasElement).getByRole('row', { name: /apply_theme/ })).toHaveTextContent('queued (2 waiting)');

    await userEvent.click(within(chooser).getByRole('button', { name: 'orange' }));
    await waitFor(() => expect(within(applier).getByTestId('last-result')).toHaveTextContent('a2 → ok: {"applied":"indigo"}'));
    await expect(statusOf(applier)).toHaveTextContent('Idle');
    await expect(within(chooser).getByTestId('last-result')).toHaveTextContent('c1 → ok: "orange"');
  },
};

/** `confirm: true`: the call holds the slot while it waits for the person's approval, and its tool reads "Awaiting approval", not "Running". */
export const AwaitingApproval: Story = {
  render: scenario('approval'),
  play: async ({ canvasElement }) => {
    const card = cardOf(canvasElement, 'Publish a theme', 'approval');
    await waitFor(() => expect(within(card).getByTestId('call')).toHaveTextContent('p1 (awaiting approval)'));
    // Waiting for a person is not running: nothing runs until they approve.
    await expect(statusOf(card)).toHaveTextContent('Awaiting approval');
    await expect(statusOf(card)).not.toHaveTextContent('Running');
    // The request reaches the approvals once their flow has loaded (on the first request): wait for it.
    await userEvent.click(await within(card).findByRole('button', { name: 'Approve' }));
    await waitFor(() => expect(within(card).getByTestId('last-result')).toHaveTextContent('p1 → ok: {"published":"teal"}'));
    await expect(statusOf(card)).toHaveTextContent('Idle');
  },
};

/** Every state side by side: idle, queued, running and awaiting approval, each its own session. */
export const AllStates: Story = {
  render: ({ speed }) => (
    <div style={{ display: 'grid', gap: '1.5rem' }}>
      {(['idle', 'queued', 'running', 'approval'] as const).map((id) => (
        <ScriptedApp key={`${id}-${speed}`} script={scripts[id]} speed={speed}>
          <ColourTools id={id} />
        </ScriptedApp>
      ))}
    </div>
  ),
  play: async ({ canvasElement }) => {
    await waitFor(() => expect(statusOf(cardOf(canvasElement, 'Apply a theme', 'queued'))).toHaveTextContent('Queued · 2 waiting'));
    await expect(statusOf(cardOf(canvasElement, 'Apply a theme', 'idle'))).toHaveTextContent('Idle');
    await expect(statusOf(cardOf(canvasElement, 'Choose a colour', 'running'))).toHaveTextContent('Running');
    await waitFor(() => expect(within(cardOf(canvasElement, 'Publish a theme', 'approval')).getByTestId('call')).toHaveTextContent('awaiting approval'));
    await expect(statusOf(cardOf(canvasElement, 'Publish a theme', 'approval'))).toHaveTextContent('Awaiting approval');
  },
};
