// The dialog's "Respond instead" and "Withdraw request" (docs/protocol.md "Decisions"), by keyboard:
// a person's JSON answer is the app call's result and the tool does not run; a withdrawn request is
// not a rejection, and the card says "Withdrawn".
import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { ConfirmToolDialog, ToolCallList, ToolgateProvider, useAppTool } from 'toolgate';
import { callEvents, createScriptedSession, type ScriptedSession } from 'toolgate/testing';

function setup(outputSchema?: Record<string, unknown>) {
  const session = createScriptedSession();
  const run = vi.fn(() => ({ published: true }));
  function Page() {
    useAppTool({ name: 'publish', confirm: true, run, ...(outputSchema === undefined ? {} : { outputSchema }) });
    return null;
  }
  render(
    <ToolgateProvider session={session} coalesce={false}>
      <Page />
      <ToolCallList announce={false} />
      <ConfirmToolDialog />
    </ToolgateProvider>,
  );
  return { session, run };
}

function startCall(session: ScriptedSession, callId: string) {
  const args = { colour: 'teal' };
  act(() => callEvents(callId, { name: 'publish', arguments: args, outcome: 'open', location: 'app' }).forEach((event) => session.emit(event)));
  let result!: ReturnType<ScriptedSession['callTool']>;
  act(() => {
    result = session.callTool({ callId, name: 'publish', arguments: args });
  });
  return result;
}

const dialog = () => screen.getByRole('dialog');
// The dialog's body loads on the first request (a dynamic import): on a loaded machine that took
// seconds in this test runner, so the first wait for it ends on the state, not at 5 s.
const DIALOG_LOAD_MS = 20_000;

describe('the dialog: respond instead, withdraw request', () => {
  it('respond: the JSON typed is the call’s result, the tool does not run, and an invalid answer says why', async () => {
    const user = userEvent.setup();
    const { session, run } = setup();
    const result = startCall(session, 'c1');
    // Offered once the request is under review (its fingerprint computed).
    const open = await screen.findByRole('button', { name: 'Respond instead' }, { timeout: DIALOG_LOAD_MS });
    open.focus();
    await user.keyboard('{Enter}');
    const field = within(dialog()).getByRole('textbox', { name: 'Your answer (JSON)' });
    expect(field).toHaveFocus();
    await user.type(field, '{{"published": fals');
    await user.click(within(dialog()).getByRole('button', { name: 'Send answer' }));
    expect(within(dialog()).getByText(/^Not valid JSON/)).toHaveAttribute('role', 'alert');
    expect(field).toHaveAttribute('aria-invalid', 'true');
    await user.type(field, 'e}');
    await user.click(within(dialog()).getByRole('button', { name: 'Send answer' }));
    expect(await result).toEqual({ ok: true, output: { published: false } });
    expect(run).not.toHaveBeenCalled();
  });

  it('withdraw: the call ends INTERRUPTED with a message that says cancelled, not rejected, and the card says Withdrawn', async () => {
    const user = userEvent.setup();
    const { session, run } = setup();
    const result = startCall(session, 'c1');
    const withdraw = await waitFor(() => within(dialog()).getByRole('button', { name: 'Withdraw request' }));
    withdraw.focus();
    await user.keyboard('{Enter}');
    const answer = await result;
    expect(answer).toMatchObject({ ok: false, code: 'INTERRUPTED', message: expect.stringMatching(/^cancelled: the person withdrew the request/) });
    expect(run).not.toHaveBeenCalled();
    const card = await waitFor(() => screen.getAllByRole('article', { name: 'publish', hidden: true })[0] as HTMLElement);
    await waitFor(() => expect(within(card).getByText('Withdrawn', { selector: '.toolgate-card-state' })).toBeInTheDocument());
    expect(within(card).queryByText('Rejected')).toBeNull();
  });

  it('Escape while the answer field is open closes the field and denies nothing; a second Escape denies', async () => {
    const user = userEvent.setup();
    const { session, run } = setup();
    const result = startCall(session, 'c1');
    const open = await screen.findByRole('button', { name: 'Respond instead' }, { timeout: DIALOG_LOAD_MS });
    open.focus();
    await user.keyboard('{Enter}');
    const field = within(dialog()).getByRole('textbox', { name: 'Your answer (JSON)' });
    expect(field).toHaveFocus();
    await user.keyboard('{Escape}');
    await waitFor(() => expect(within(dialog()).queryByRole('textbox', { name: 'Your answer (JSON)' })).toBeNull());
    // Back on the button that opened it, the request still under review.
    await waitFor(() => expect(within(dialog()).getByRole('button', { name: 'Respond instead' })).toHaveFocus());
    let settled = false;
    void result.then(() => (settled = true));
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(settled).toBe(false);
    await user.keyboard('{Escape}');
    expect(await result).toMatchObject({ ok: false, code: 'REJECTED' });
    expect(run).not.toHaveBeenCalled();
  });

  it('respond: with the tool’s output schema, the answer is a form of its fields, checked against the schema before it is sent', async () => {
    const user = userEvent.setup();
    const session = createScriptedSession();
    render(
      <ToolgateProvider session={session} coalesce={false}>
        <ConfirmToolDialog />
      </ToolgateProvider>,
    );
    const outputSchema = {
      type: 'object',
      properties: { status: { type: 'string', enum: ['shipped', 'held'] }, days: { type: 'integer', minimum: 0 }, note: { type: 'string' } },
      required: ['status', 'days'],
    };
    act(() => {
      session.emit({ type: 'tool.stream', phase: 'start', callId: 'c9', turnId: 't1', name: 'lookup_order' });
      session.emit({ type: 'tool.approval-request', requestId: 'r9', callId: 'c9', turnId: 't1', name: 'lookup_order', arguments: { orderId: 'ord_1' }, risk: 'medium', outputSchema });
    });
    const open = await screen.findByRole('button', { name: 'Respond instead' }, { timeout: DIALOG_LOAD_MS });
    open.focus();
    await user.keyboard('{Enter}');
    const form = await within(dialog()).findByRole('form', { name: 'Respond instead' });
    const days = within(form).getByRole('textbox', { name: /^days/ });
    await waitFor(() => expect(within(form).getByRole('combobox', { name: /^status/ })).toHaveFocus());
    await user.selectOptions(within(form).getByRole('combobox', { name: /^status/ }), 'shipped');
    await user.type(days, '-2');
    await user.click(within(form).getByRole('button', { name: 'Send answer' }));
    // Below the schema's minimum: nothing is sent, and the form says why.
    await waitFor(() => expect(within(form).getByText(/minimum|at least|>=/i)).toBeInTheDocument());
    expect(session.sent.filter((m) => m.type === 'tool.approval')).toHaveLength(0);
    await user.clear(days);
    await user.type(days, '3');
    await user.click(within(form).getByRole('button', { name: 'Send answer' }));
    await waitFor(() => expect(session.sent.filter((m) => m.type === 'tool.approval')).toHaveLength(1));
    expect(session.sent.find((m) => m.type === 'tool.approval')).toMatchObject({ decision: 'respond', output: { status: 'shipped', days: 3 } });
  });

  it('respond: an app tool that declares its output schema gets the form too, and its call settles with the answer', async () => {
    const user = userEvent.setup();
    const { session, run } = setup({ type: 'object', properties: { published: { type: 'boolean' }, url: { type: 'string' } }, required: ['published'] });
    const result = startCall(session, 'c1');
    const open = await screen.findByRole('button', { name: 'Respond instead' }, { timeout: DIALOG_LOAD_MS });
    open.focus();
    await user.keyboard('{Enter}');
    const form = await within(dialog()).findByRole('form', { name: 'Respond instead' });
    await user.type(within(form).getByRole('textbox', { name: /^url/ }), 'https://example.test/p/1');
    await user.click(within(form).getByRole('button', { name: 'Send answer' }));
    expect(await result).toEqual({ ok: true, output: { published: false, url: 'https://example.test/p/1' } });
    expect(run).not.toHaveBeenCalled();
  });
});
