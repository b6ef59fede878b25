import { StrictMode, useState } from 'react';
import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  ToolCallInput,
  ToolCallList,
  ToolgateProvider,
  useHumanTool,
  useInterrupt,
  type AppToolHostOptions,
  type HumanToolView,
  type PersonInputProps,
} from 'toolgate';
import { callEvents, createManualClock, createScriptedSession, type ScriptedSession } from 'toolgate/testing';
import { hostileOutputs, watchUnhandledRejections } from '../fixtures/hostile-values';

type Question = { question: string; options: string[] };

/** A person's form: one radio per option, Send and Not now. */
function ChoiceForm({ args, respond, cancel }: PersonInputProps<Question, { choice: string }>) {
  const [choice, setChoice] = useState('');
  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        respond({ choice });
      }}
    >
      <fieldset>
        <legend>{args.question}</legend>
        {args.options.map((option) => (
          <label key={option}>
            <input type="radio" name="choice" value={option} checked={choice === option} onChange={() => setChoice(option)} />
            {option}
          </label>
        ))}
      </fieldset>
      <button type="submit">Send</button>
      <button type="button" onClick={() => cancel('not now')}>
        Not now
      </button>
    </form>
  );
}

const question = { question: 'Which colour?', options: ['teal', 'orange'] };

function setup(options: { hostOptions?: AppToolHostOptions; waitsForPerson?: boolean; list?: boolean } = {}) {
  const session = createScriptedSession();
  const seen: { interrupt?: (turnId?: string) => void; view?: HumanToolView<Question, { choice: string }> } = {};
  function Tool() {
    seen.view = useHumanTool<Question, { choice: string }>({
      name: 'choose',
      validate: z.object({ question: z.string(), options: z.array(z.string()) }),
      ...(options.waitsForPerson && { waitsForPerson: true }),
      render: (props) => <ChoiceForm {...props} />,
    });
    seen.interrupt = useInterrupt();
    // Without a list, the page shows the input itself, where it likes.
    return options.list === false && seen.view.callId ? <ToolCallInput callId={seen.view.callId} /> : null;
  }
  render(
    <StrictMode>
      <ToolgateProvider session={session} {...(options.hostOptions && { hostOptions: options.hostOptions })}>
        <Tool />
        {options.list !== false && <ToolCallList announce={false} />}
      </ToolgateProvider>
    </StrictMode>,
  );
  return { session, seen };
}

function ask(session: ScriptedSession, callId = 'q1', turnId = 'turn-1') {
  act(() => callEvents(callId, { name: 'choose', turnId, arguments: question, outcome: 'open', location: 'app' }).forEach((event) => session.emit(event)));
  let result!: ReturnType<ScriptedSession['callTool']>;
  act(() => {
    result = session.callTool({ callId, turnId, name: 'choose', arguments: question });
  });
  return result;
}

const form = () => screen.findByRole('group', { name: 'Your answer for choose' });

describe('useHumanTool: an app tool answered by a person', () => {
  it("shows its input inside the call's card and answers with what the person gives", async () => {
    const user = userEvent.setup();
    const { session, seen } = setup();
    const result = ask(session);
    const input = await form();
    expect(screen.getByRole('article', { name: 'choose' })).toContainElement(input);
    expect(seen.view?.request?.args).toEqual(question);
    await user.click(within(input).getByRole('radio', { name: 'orange' }));
    await user.click(within(input).getByRole('button', { name: 'Send' }));
    expect(await result).toEqual({ ok: true, output: { choice: 'orange' } });
    await waitFor(() => expect(screen.queryByRole('group', { name: 'Your answer for choose' })).toBeNull());
    // The answer is the output, on the card that ran it.
    expect(within(screen.getByRole('article', { name: 'choose' })).getByRole('group', { name: 'Output' })).toHaveTextContent(/orange/);
  });

  it('answers REJECTED with the reason when the person declines', async () => {
    const user = userEvent.setup();
    const { session } = setup();
    const result = ask(session);
    await user.click(within(await form()).getByRole('button', { name: 'Not now' }));
    expect(await result).toEqual({ ok: false, code: 'REJECTED', message: 'not now' });
  });

  it('withdraws the form at once when the turn is interrupted, and the call answers INTERRUPTED once', async () => {
    const { session, seen } = setup();
    const result = ask(session, 'q1', 'turn-7');
    await form();
    const request = seen.view?.request;
    act(() => seen.interrupt?.('turn-7'));
    expect(screen.queryByRole('group', { name: 'Your answer for choose' })).toBeNull();
    expect(request?.signal.aborted).toBe(true);
    act(() => request?.respond({ choice: 'teal' })); // too late: changes nothing
    expect(await result).toMatchObject({ ok: false, code: 'INTERRUPTED' });
    await waitFor(() => expect(session.sent.filter((m) => m.type === 'tool.result')).toHaveLength(1));
    expect(screen.getByRole('article', { name: 'choose' })).toHaveAttribute('data-status', 'cancelled');
  });

  it('stops the clock while the person decides only when the tool says waitsForPerson', async () => {
    const user = userEvent.setup();
    const patientClock = createManualClock();
    const patient = setup({ hostOptions: { clock: patientClock, timeoutMs: 100 }, waitsForPerson: true });
    const answered = ask(patient.session);
    await form();
    await act(() => patientClock.advance(10_000));
    const strictClock = createManualClock();
    // A second page whose tool does not say so: the person's wait counts.
    const hurried = (() => {
      const session = createScriptedSession();
      function Tool() {
        useHumanTool({ name: 'choose_fast', render: ({ respond }) => <button onClick={() => respond('x')}>Pick</button> });
        return null;
      }
      render(
        <ToolgateProvider session={session} hostOptions={{ clock: strictClock, timeoutMs: 100 }}>
          <Tool />
          <ToolCallList announce={false} />
        </ToolgateProvider>,
      );
      return session;
    })();
    act(() => callEvents('h1', { name: 'choose_fast', arguments: {}, outcome: 'open', location: 'app' }).forEach((event) => hurried.emit(event)));
    const late = hurried.callTool({ callId: 'h1', name: 'choose_fast', arguments: {} });
    await screen.findByRole('group', { name: 'Your answer for choose_fast' });
    await act(() => strictClock.advance(100));
    expect(await late).toMatchObject({ ok: false, code: 'TIMEOUT' });
    expect(screen.queryByRole('group', { name: 'Your answer for choose_fast' })).toBeNull();
    // The patient tool's form is still there, however long it waited, and its answer counts.
    const input = screen.getByRole('group', { name: 'Your answer for choose' });
    await user.click(within(input).getByRole('radio', { name: 'teal' }));
    await user.click(within(input).getByRole('button', { name: 'Send' }));
    expect(await answered).toEqual({ ok: true, output: { choice: 'teal' } });
  });

  it("renders the input wherever the page puts <ToolCallInput> for a call without a card", async () => {
    const user = userEvent.setup();
    const { session } = setup({ list: false });
    const result = session.callTool({ callId: 'q9', name: 'choose', arguments: question });
    const input = await form();
    await user.click(within(input).getByRole('radio', { name: 'teal' }));
    await user.click(within(input).getByRole('button', { name: 'Send' }));
    expect(await result).toEqual({ ok: true, output: { choice: 'teal' } });
  });
});

describe('useHumanTool answers every call at once, whatever the person gives', () => {
  const unhandled = watchUnhandledRejections();

  for (const [what, make] of Object.entries(hostileOutputs)) {
    it(`answers FAILED at once when the answer is ${what}, takes the form down, and leaves nothing unhandled`, async () => {
      // No time limit: a call that missed its answer would wait forever.
      const { session, seen } = setup({ hostOptions: { timeoutMs: Infinity } });
      const result = ask(session);
      await form();
      let answered: unknown = 'no answer';
      void result.then((r) => {
        answered = r;
      });
      act(() => seen.view?.request?.respond(make() as { choice: string }));
      for (let i = 0; i < 3; i++) await act(async () => {});
      expect(answered).toMatchObject({ ok: false, code: 'FAILED' });
      expect(screen.queryByRole('group', { name: 'Your answer for choose' })).toBeNull();
      expect(session.sent.filter((m) => m.type === 'tool.result')).toHaveLength(1);
      // The next call is asked at once.
      const again = ask(session, 'q2');
      await form();
      act(() => seen.view?.request?.respond({ choice: 'teal' }));
      expect(await again).toEqual({ ok: true, output: { choice: 'teal' } });
      expect(unhandled).toEqual([]);
    });
  }

  it('answers REJECTED with the default reason when the person cancels with a reason no one can read', async () => {
    const { session, seen } = setup({ hostOptions: { timeoutMs: Infinity } });
    const result = ask(session);
    await form();
    const unreadable = new Proxy({}, { get: () => { throw new Error('trap'); } }) as unknown as string;
    act(() => seen.view?.request?.cancel(unreadable));
    expect(await result).toEqual({ ok: false, code: 'REJECTED', message: 'declined by the person' });
    expect(unhandled).toEqual([]);
  });
});
