import { StrictMode } from 'react';
import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import {
  ConfirmToolDialog,
  ToolCallList,
  ToolgateProvider,
  useAppTool,
  useConfirmationController,
  type ConfirmationController,
} from 'toolgate';
import { callEvents, createScriptedSession, type ScriptedSession } from 'toolgate/testing';

/** A page with an app tool that asks first, the list, and (optionally) the dialog. */
function setup(options: { dialog?: boolean } = {}) {
  const session = createScriptedSession();
  const run = vi.fn((args: Record<string, unknown>) => ({ published: args['colour'] }));
  const seen: { controller?: ConfirmationController } = {};
  function Page() {
    useAppTool({ name: 'publish', confirm: true, run });
    seen.controller = useConfirmationController();
    return null;
  }
  render(
    <StrictMode>
      <ToolgateProvider session={session} coalesce={false}>
        <Page />
        <ToolCallList announce={false} />
        {options.dialog && <ConfirmToolDialog />}
      </ToolgateProvider>
    </StrictMode>,
  );
  return { session, run, seen };
}

/** The server starts an app call: its stream events, then the call itself. */
function startCall(session: ScriptedSession, callId: string, args: Record<string, unknown>) {
  act(() => callEvents(callId, { name: 'publish', arguments: args, outcome: 'open', location: 'app' }).forEach((event) => session.emit(event)));
  let result!: ReturnType<ScriptedSession['callTool']>;
  act(() => {
    result = session.callTool({ callId, name: 'publish', arguments: args });
  });
  return result;
}

const cardOf = (name: string, index = 0) => screen.getAllByRole('article', { name, hidden: true })[index] as HTMLElement;
/** The card once it is drawn: a new running call's card is held steady for two frames first. */
const findCard = (name: string, index = 0) => waitFor(() => expect(cardOf(name, index)).toBeInstanceOf(HTMLElement)).then(() => cardOf(name, index));
const inCard = (card: HTMLElement, name: string) => within(card).getByRole('button', { name, hidden: true });

describe('approvals on the cards', () => {
  it('show Awaiting approval on the card of a call that waits, and run it once approved there', async () => {
    const user = userEvent.setup();
    const { session, run } = setup();
    const result = startCall(session, 'c1', { colour: 'teal' });
    const card = await findCard('publish');
    await waitFor(() => expect(within(card).getByRole('group', { name: 'Awaiting approval' })).toHaveAttribute('data-state', 'reviewing'));
    // Said once on the card: by its badge; the buttons' group is named so, without a second visible label.
    expect(within(within(card).getByRole('group', { name: 'Awaiting approval' })).queryByText('Awaiting approval')).toBeNull();
    expect(within(card).getByText('Awaiting approval', { selector: '.toolgate-badge' })).toBeInTheDocument();
    await user.click(inCard(card, 'Approve'));
    expect(await result).toEqual({ ok: true, output: { published: 'teal' } });
    expect(run).toHaveBeenCalledTimes(1);
    expect(within(card).queryByRole('group', { name: 'Awaiting approval' })).toBeNull();
  });

  it('run once for an approval clicked on the card and in the dialog and spoken, all at once', async () => {
    const { session, run, seen } = setup({ dialog: true });
    const result = startCall(session, 'c1', { colour: 'teal' });
    const dialog = await screen.findByRole('dialog');
    await waitFor(() => expect(dialog).toHaveAttribute('data-status', 'reviewing'));
    const card = await findCard('publish');
    await waitFor(() => expect(inCard(card, 'Approve')).not.toHaveAttribute('aria-disabled'));
    act(() => {
      inCard(card, 'Approve').click();
      within(dialog).getByRole('button', { name: 'Approve' }).click();
      seen.controller?.approve(); // a spoken "yes"
      inCard(card, 'Approve').click();
    });
    expect(await result).toEqual({ ok: true, output: { published: 'teal' } });
    expect(run).toHaveBeenCalledTimes(1);
    expect(session.sent.filter((m) => m.type === 'tool.result')).toHaveLength(1);
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('answer REJECTED for Deny on the card, and run nothing', async () => {
    const user = userEvent.setup();
    const { session, run } = setup();
    const result = startCall(session, 'c1', { colour: 'red' });
    const card = await findCard('publish');
    await waitFor(() => expect(inCard(card, 'Approve')).not.toHaveAttribute('aria-disabled'));
    await user.click(inCard(card, 'Deny'));
    expect(await result).toMatchObject({ ok: false, code: 'REJECTED' });
    expect(run).not.toHaveBeenCalled();
  });

  it("answer the server's gate once when its call is approved on the card, with the fingerprint of what was shown", async () => {
    const user = userEvent.setup();
    const { session } = setup(); // its app tool stays idle: these calls are the server's
    act(() => {
      callEvents('s1', { name: 'deploy', arguments: { version: 2 }, outcome: 'open', location: 'server', risk: 'high' }).forEach((event) => session.emit(event));
      session.emit({ type: 'tool.approval-request', requestId: 'r1', callId: 's1', name: 'deploy', arguments: { version: 2 }, risk: 'high' });
    });
    const card = await findCard('deploy');
    await waitFor(() => expect(inCard(card, 'Approve')).not.toHaveAttribute('aria-disabled'));
    const approve = inCard(card, 'Approve');
    await user.click(approve);
    await user.click(approve); // a second click: the request is answered already
    const answer = await session.waitForMessage('tool.approval');
    expect(answer).toMatchObject({ requestId: 'r1', approved: true, fingerprint: expect.stringMatching(/^[0-9a-f]{64}$/) });
    expect(session.sent.filter((m) => m.type === 'tool.approval')).toHaveLength(1);
  });

  it('say how many requests come first on a card whose approval waits its turn: Approve does nothing there, Deny works', async () => {
    const user = userEvent.setup();
    const { session } = setup(); // its app tool stays idle: these calls are the server's
    act(() => {
      for (const [callId, requestId] of [['s1', 'r1'], ['s2', 'r2']] as const) {
        callEvents(callId, { name: 'deploy', arguments: { callId }, outcome: 'open', location: 'server' }).forEach((event) => session.emit(event));
        session.emit({ type: 'tool.approval-request', requestId, callId, name: 'deploy', arguments: { callId }, risk: 'medium' });
      }
    });
    const second = await findCard('deploy', 1);
    await waitFor(() => expect(inCard(cardOf('deploy', 0), 'Approve')).not.toHaveAttribute('aria-disabled'));
    expect(within(second).getByText('After 1 earlier request')).toBeInTheDocument();
    expect(inCard(second, 'Approve')).toHaveAttribute('aria-disabled', 'true');
    await user.click(inCard(second, 'Approve'));
    expect(session.sent.filter((m) => m.type === 'tool.approval')).toHaveLength(0);
    await user.click(inCard(second, 'Deny'));
    expect(await session.waitForMessage('tool.approval')).toMatchObject({ requestId: 'r2', approved: false });
  });
});
