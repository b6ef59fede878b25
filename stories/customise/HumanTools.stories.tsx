import { useEffect, useId, useState } from 'react';
import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, userEvent, waitFor, within } from 'storybook/test';
import { z } from 'zod';
import { ToolCallList, useHumanTool, type PersonInputProps, type ToolResult } from 'toolgate';
import type { ScriptedSession } from 'toolgate/testing';
import { InterruptButton, ScriptedApp, TravelTools, appCall } from './support';

interface Args {
  /** How fast the scripted session plays: 1 is real time (instant when run as a test). */
  speed: number;
}

/**
 * `useHumanTool` registers an app tool whose `run` waits for a person: its `render` (here a seat
 * picker, or a file picker) shows inside the call's card, and what the person picks is the call's output. It honours
 * the signal: stopping the turn withdraws the form at once and the call answers `INTERRUPTED`.
 * With `waitsForPerson: true` the client's time limit does not count the person's wait.
 */
const meta = {
  title: 'Customise/Tools answered by a person',
  args: { speed: 1 },
  argTypes: { speed: { control: { type: 'range', min: 0.25, max: 8, step: 0.25 } } },
  parameters: { layout: 'padded' },
} satisfies Meta<Args>;
export default meta;
type Story = StoryObj<Args>;

const seat = () => appCall('s1', 'pick_seat', { flight: 'NA 1234', seats: ['12A', '14C', '21F'] });

const render: Story['render'] = ({ speed }) => (
  <ScriptedApp key={speed} script={seat} speed={speed}>
    <TravelTools />
    <InterruptButton />
    <ToolCallList />
  </ScriptedApp>
);

const formOf = async (root: HTMLElement) => {
  const picked = await within(root).findByRole('article', { name: 'pick_seat' });
  return { card: picked, form: await within(picked).findByRole('group', { name: 'Your answer for pick_seat' }) };
};

/** The traveller picks a seat in the card: the call answers with it, and the card shows it as the output. */
export const PersonAnswersForm: Story = {
  render,
  play: async ({ canvasElement }) => {
    const { card, form } = await formOf(canvasElement);
    await userEvent.click(within(form).getByRole('radio', { name: '14C' }));
    await userEvent.click(within(form).getByRole('button', { name: 'Choose this seat' }));
    await waitFor(() => expect(within(card).getByRole('group', { name: 'Output' })).toHaveTextContent(/14C/));
    await waitFor(() => expect(card).toHaveAttribute('data-outcome', 'ok'));
    await expect(within(card).queryByRole('group', { name: 'Your answer for pick_seat' })).toBeNull();
  },
};

/** The traveller says not now: the call answers `REJECTED` with their reason. */
export const PersonDeclines: Story = {
  render,
  play: async ({ canvasElement }) => {
    const { card, form } = await formOf(canvasElement);
    await userEvent.click(within(form).getByRole('button', { name: 'Not now' }));
    await waitFor(() => expect(card).toHaveAttribute('data-outcome', 'error'));
    await expect(within(card).getByText('Rejected', { selector: '.toolgate-badge' })).toBeVisible();
  },
};

/** Stop the turn while the form is open: the form is withdrawn at once and the call is cancelled. */
export const InterruptWithdrawsForm: Story = {
  render,
  play: async ({ canvasElement }) => {
    const { card } = await formOf(canvasElement);
    await userEvent.click(within(canvasElement).getByRole('button', { name: 'Stop the turn' }));
    await expect(within(card).queryByRole('group', { name: 'Your answer for pick_seat' })).toBeNull();
    await expect(card).toHaveAttribute('data-status', 'cancelled');
    await expect(within(card).getByText('Cancelled here')).toBeVisible();
  },
};

/* ------------------------------------------------------------ a file picker */

/** What `pick_file` answers with: facts about the file the person chose, never its content. */
interface FileFacts {
  name: string;
  size: number;
  type: string;
}

const fileRequest = z.object({ purpose: z.string(), accept: z.string().optional() });

/** The page's `pick_file` tool: the model asks for a file, the person chooses one in the card. */
function FileTool() {
  useHumanTool<z.infer<typeof fileRequest>, FileFacts>({
    name: 'pick_file',
    description: 'Ask the person to choose a file; answers with its name, size and type (not its content)',
    validate: fileRequest,
    waitsForPerson: true,
    render: (props) => <FilePicker {...props} />,
  });
  return null;
}

/**
 * A file input and two buttons, all reachable by keyboard. Only the file's name, size and type
 * leave the page: reading its content would be a different tool, one the person is told about.
 */
function FilePicker({ args, respond, cancel }: PersonInputProps<z.infer<typeof fileRequest>, FileFacts>) {
  const [file, setFile] = useState<File | null>(null);
  const inputId = useId();
  const headingId = useId();
  return (
    <form
      aria-labelledby={headingId}
      style={{ display: 'grid', gap: '0.5rem', justifyItems: 'start' }}
      onSubmit={(event) => {
        event.preventDefault();
        if (file) respond({ name: file.name, size: file.size, type: file.type });
      }}
    >
      <p id={headingId} style={{ margin: 0 }}>
        {args.purpose}
      </p>
      <label htmlFor={inputId}>File to share</label>
      <input id={inputId} type="file" accept={args.accept} onChange={(event) => setFile(event.currentTarget.files?.[0] ?? null)} />
      {file && (
        <p style={{ margin: 0 }} data-testid="chosen">
          {file.name}, {file.size} bytes, {file.type || 'unknown type'}
        </p>
      )}
      <div style={{ display: 'flex', gap: '0.5rem' }}>
        <button type="submit" className="toolgate-button" disabled={!file}>
          Share name, size and type
        </button>
        <button type="button" className="toolgate-button" onClick={() => cancel('the person chose not to share a file')}>
          Not now
        </button>
      </div>
    </form>
  );
}

/** The result the session received for `callId`, as the server would see it. */
function SessionReceived({ session, callId }: { session: ScriptedSession; callId: string }) {
  const [result, setResult] = useState<ToolResult | null>(null);
  useEffect(() => {
    const controller = new AbortController();
    session.waitForResult(callId, { signal: controller.signal }).then(setResult, () => {});
    return () => controller.abort();
  }, [session, callId]);
  return (
    <p style={{ margin: 0 }}>
      The session received: <code data-testid="received">{result ? JSON.stringify(result) : 'nothing yet'}</code>
    </p>
  );
}

const fileCall = () => appCall('f1', 'pick_file', { purpose: 'Attach the signed contract', accept: '.pdf,application/pdf' });

const renderFile: Story['render'] = ({ speed }) => (
  <ScriptedApp key={speed} script={fileCall} speed={speed}>
    {(session) => (
      <>
        <FileTool />
        <ToolCallList />
        <SessionReceived session={session} callId="f1" />
      </>
    )}
  </ScriptedApp>
);

/** Tab until `target` has focus (it must be reachable by keyboard, in a few steps). */
async function tabTo(target: HTMLElement) {
  for (let i = 0; i < 20 && target.ownerDocument.activeElement !== target; i++) await userEvent.tab();
  await expect(target).toHaveFocus();
}

const received = (root: HTMLElement) => JSON.parse(within(root).getByTestId('received').textContent ?? '') as unknown;

const fileFormOf = async (root: HTMLElement) => {
  const card = await within(root).findByRole('article', { name: 'pick_file' });
  return { card, form: await within(card).findByRole('group', { name: 'Your answer for pick_file' }) };
};

const contractText = '%PDF-1.7 signed by both parties';

/**
 * The person tabs to the file input, chooses a file and shares it with the keyboard: the call's
 * output on the card, and the result the session received, are the file's name, size and type.
 */
export const PersonPicksFile: Story = {
  render: renderFile,
  play: async ({ canvasElement }) => {
    const { card, form } = await fileFormOf(canvasElement);
    const input = within(form).getByLabelText('File to share');
    await tabTo(input);
    const file = new File([contractText], 'contract.pdf', { type: 'application/pdf' });
    await userEvent.upload(input, file);
    await expect(within(form).getByTestId('chosen')).toHaveTextContent(`contract.pdf, ${file.size} bytes, application/pdf`);

    await tabTo(within(form).getByRole('button', { name: 'Share name, size and type' }));
    await userEvent.keyboard('{Enter}');

    const facts = { name: 'contract.pdf', size: file.size, type: 'application/pdf' };
    await waitFor(() => expect(received(canvasElement)).toEqual({ ok: true, output: facts }));
    await waitFor(() => expect(card).toHaveAttribute('data-status', 'settled'));
    await expect(card).toHaveAttribute('data-outcome', 'ok');
    const output = within(card).getByRole('group', { name: 'Output' });
    await expect(output).toHaveTextContent(/name\s*contract\.pdf/);
    await expect(output).toHaveTextContent(new RegExp(`size\\s*${file.size}`));
    await expect(output).toHaveTextContent(/type\s*application\/pdf/);
    await expect(within(card).queryByRole('group', { name: 'Your answer for pick_file' })).toBeNull();
    // Never the content: it was not asked for.
    await expect(canvasElement).not.toHaveTextContent('signed by both parties');
  },
};

/** The person tabs past the file input to Not now: the call answers `REJECTED` with their reason, and no file facts leave. */
export const PersonDeclinesFile: Story = {
  render: renderFile,
  play: async ({ canvasElement }) => {
    const { card, form } = await fileFormOf(canvasElement);
    await tabTo(within(form).getByRole('button', { name: 'Not now' }));
    await userEvent.keyboard('{Enter}');

    await waitFor(() =>
      expect(received(canvasElement)).toEqual({ ok: false, code: 'REJECTED', message: 'the person chose not to share a file' }),
    );
    await waitFor(() => expect(card).toHaveAttribute('data-outcome', 'error'));
    await expect(within(card).getByText('Rejected', { selector: '.toolgate-badge' })).toBeVisible();
    await expect(within(card).queryByRole('group', { name: 'Output' })).toBeNull();
    await expect(within(card).queryByRole('group', { name: 'Your answer for pick_file' })).toBeNull();
  },
};
