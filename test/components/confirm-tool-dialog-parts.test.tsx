import { StrictMode, createRef, useState, type ReactNode } from 'react';
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { ConfirmToolDialog, ConfirmToolDialogApprove, ConfirmToolDialogArguments, ConfirmToolDialogContent, ConfirmToolDialogDeny, ConfirmToolDialogDescription, ConfirmToolDialogFingerprint, ConfirmToolDialogOverlay, ConfirmToolDialogPortal, ConfirmToolDialogQueueCount, ConfirmToolDialogRoot, ConfirmToolDialogTitle, createConfirmationController, useConfirmToolDialog, type ConfirmToolLabelsOverride, type ConfirmationController, type ConfirmationOutcome } from 'toolgate';
import { fingerprintJson } from 'toolgate/json';
import { createScriptedRoom } from 'toolgate/testing';
import { defaultConfirmLabels, mergeConfirmLabels } from '../../src/wording/confirm-labels';

const strict = (node: ReactNode) => render(<StrictMode>{node}</StrictMode>);

/** A dialog of its own from the parts: fingerprint first, Approve before Deny, the count at the end. */
function Compact({ controller, children }: { controller: ConfirmationController; children?: ReactNode }) {
  return (
    <ConfirmToolDialogRoot controller={controller}>
      <ConfirmToolDialogPortal>
        <ConfirmToolDialogOverlay />
        <ConfirmToolDialogContent className="compact">
          <ConfirmToolDialogFingerprint />
          <ConfirmToolDialogTitle />
          <ConfirmToolDialogDescription>Look closely.</ConfirmToolDialogDescription>
          <ConfirmToolDialogArguments />
          <ConfirmToolDialogApprove>Yes, run it</ConfirmToolDialogApprove>
          <ConfirmToolDialogDeny />
          <ConfirmToolDialogQueueCount />
          {children}
        </ConfirmToolDialogContent>
      </ConfirmToolDialogPortal>
    </ConfirmToolDialogRoot>
  );
}

/** Queue requests with the controller; returns their outcomes' promises. */
function queue(controller: ConfirmationController, names: string[]): Promise<ConfirmationOutcome>[] {
  let outcomes: Promise<ConfirmationOutcome>[] = [];
  act(() => {
    outcomes = names.map((toolName) => controller.request({ toolName, arguments: { toolName, n: 1 } }));
  });
  // A test that ends by withdrawing them does not wait for them.
  for (const outcome of outcomes) outcome.catch(() => undefined);
  return outcomes;
}

describe('ConfirmToolDialog parts', () => {
  it('make a dialog of their own layout with the same rules: focus on Deny, the fingerprint of what runs, Escape denies', async () => {
    const user = userEvent.setup();
    const room = createScriptedRoom();
    const controller = createConfirmationController({ room });
    strict(<Compact controller={controller} />);
    const [first, second] = queue(controller, ['one', 'two']);
    const dialog = await screen.findByRole('dialog', { name: 'one' });
    await waitFor(() => expect(dialog).toHaveAttribute('data-status', 'reviewing'));
    expect(dialog).toHaveAttribute('data-state', 'open');
    expect(dialog).toHaveClass('toolgate-confirm', 'compact');
    expect(dialog).toHaveAccessibleDescription('Look closely.');
    expect(within(dialog).getByText('1 more waiting')).toBeInTheDocument();
    expect(within(dialog).getByRole('group', { name: 'Arguments' })).toHaveTextContent('one');
    await waitFor(() => expect(within(dialog).getByRole('button', { name: 'Deny' })).toHaveFocus());
    const shown = dialog.querySelector('code')?.textContent;
    await user.click(within(dialog).getByRole('button', { name: 'Yes, run it' }));
    await expect(first).resolves.toMatchObject({ status: 'done' });
    expect(shown).toBe((await fingerprintJson({ toolName: 'one', n: 1 })).short);
    const next = await screen.findByRole('dialog', { name: 'two' });
    await waitFor(() => expect(next).toHaveAttribute('data-status', 'reviewing'));
    await waitFor(() => expect(within(next).getByRole('button', { name: 'Deny' })).toHaveFocus());
    await user.keyboard('{Escape}');
    await expect(second).resolves.toEqual({ status: 'denied' });
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(room.calls.filter((call) => call.method === 'invokeTool').map((call) => call.toolName)).toEqual(['one']);
  });

  it('each render one element, take its props and forward its ref', async () => {
    const controller = createConfirmationController({ room: createScriptedRoom() });
    const refs = {
      overlay: createRef<HTMLDivElement>(),
      content: createRef<HTMLDivElement>(),
      title: createRef<HTMLHeadingElement>(),
      description: createRef<HTMLParagraphElement>(),
      args: createRef<HTMLDivElement>(),
      fingerprint: createRef<HTMLElement>(),
      count: createRef<HTMLParagraphElement>(),
      approve: createRef<HTMLButtonElement>(),
      deny: createRef<HTMLButtonElement>(),
    };
    strict(
      <ConfirmToolDialogRoot controller={controller}>
        <ConfirmToolDialogPortal>
          <ConfirmToolDialogOverlay ref={refs.overlay} data-part="overlay" />
          <ConfirmToolDialogContent ref={refs.content} data-part="content">
            <ConfirmToolDialogTitle ref={refs.title} data-part="title" className="mine" />
            <ConfirmToolDialogDescription ref={refs.description} data-part="description" />
            <ConfirmToolDialogArguments ref={refs.args} data-part="args" />
            <ConfirmToolDialogFingerprint ref={refs.fingerprint} data-part="fingerprint" />
            <ConfirmToolDialogQueueCount ref={refs.count} data-part="count" />
            <ConfirmToolDialogApprove ref={refs.approve} data-part="approve" />
            <ConfirmToolDialogDeny ref={refs.deny} data-part="deny" />
          </ConfirmToolDialogContent>
        </ConfirmToolDialogPortal>
      </ConfirmToolDialogRoot>,
    );
    queue(controller, ['a', 'b']);
    const dialog = await screen.findByRole('dialog');
    await waitFor(() => expect(dialog).toHaveAttribute('data-status', 'reviewing'));
    const tags = { overlay: 'DIV', content: 'DIV', title: 'H2', description: 'P', args: 'DIV', fingerprint: 'CODE', count: 'P', approve: 'BUTTON', deny: 'BUTTON' };
    for (const [part, tag] of Object.entries(tags)) {
      const element = refs[part as keyof typeof refs].current;
      expect(element?.tagName, part).toBe(tag);
      expect(element, part).toHaveAttribute('data-part', part);
    }
    expect(refs.title.current).toHaveClass('toolgate-confirm-title', 'mine');
    // One element each: the parts inside the dialog are its children, nothing wraps them.
    expect([...dialog.children].map((child) => child.getAttribute('data-part'))).toEqual(['title', 'description', 'args', 'fingerprint', 'count', 'approve', 'deny']);
    act(() => void controller.withdrawAll());
  });

  it("run the consumer's handler first, and their own only when the consumer did not prevent it", async () => {
    const room = createScriptedRoom();
    const controller = createConfirmationController({ room });
    const order: string[] = [];
    strict(
      <ConfirmToolDialogRoot controller={controller}>
        <ConfirmToolDialogPortal>
          <ConfirmToolDialogContent
            onEscapeKeyDown={(event) => {
              order.push(`escape while ${controller.getState().status}`);
              if (order.length === 1) event.preventDefault();
            }}
          >
            <ConfirmToolDialogTitle />
            <ConfirmToolDialogApprove
              onClick={(event) => {
                order.push(`approve while ${controller.getState().status}`);
                if (order.length === 2) event.preventDefault();
              }}
            />
          </ConfirmToolDialogContent>
        </ConfirmToolDialogPortal>
      </ConfirmToolDialogRoot>,
    );
    const [first, second] = queue(controller, ['a', 'b']);
    const dialog = await screen.findByRole('dialog');
    await waitFor(() => expect(dialog).toHaveAttribute('data-status', 'reviewing'));
    // Prevented by the consumer: Escape does not deny, the click does not approve.
    fireEvent.keyDown(dialog, { key: 'Escape' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Approve' }));
    expect(controller.getState().current?.status).toBe('reviewing');
    // Not prevented: the consumer first, then the part's own action.
    fireEvent.click(within(dialog).getByRole('button', { name: 'Approve' }));
    await expect(first).resolves.toMatchObject({ status: 'done' });
    await waitFor(() => expect(screen.getByRole('dialog')).toHaveAttribute('data-status', 'reviewing'));
    fireEvent.keyDown(screen.getByRole('dialog'), { key: 'Escape' });
    await expect(second).resolves.toEqual({ status: 'denied' });
    expect(order).toEqual(['escape while reviewing', 'approve while reviewing', 'approve while reviewing', 'escape while reviewing']);
  });

  it('ignore a click outside even when the consumer lets it through', async () => {
    const user = userEvent.setup({ pointerEventsCheck: 0 });
    const controller = createConfirmationController({ room: createScriptedRoom() });
    const outside = vi.fn();
    strict(
      <ConfirmToolDialogRoot controller={controller}>
        <ConfirmToolDialogPortal>
          <ConfirmToolDialogOverlay />
          <ConfirmToolDialogContent onPointerDownOutside={outside} onInteractOutside={outside}>
            <ConfirmToolDialogTitle />
            <ConfirmToolDialogDeny />
          </ConfirmToolDialogContent>
        </ConfirmToolDialogPortal>
      </ConfirmToolDialogRoot>,
    );
    queue(controller, ['a']);
    const dialog = await screen.findByRole('dialog');
    await waitFor(() => expect(dialog).toHaveAttribute('data-status', 'reviewing'));
    await user.pointer({ keys: '[MouseLeft]', target: document.querySelector('.toolgate-confirm-overlay') as HTMLElement });
    expect(outside).toHaveBeenCalled();
    expect(screen.getByRole('dialog')).toHaveAttribute('data-status', 'reviewing');
    act(() => void controller.withdrawAll());
  });

  it('give their state to parts of your own through useConfirmToolDialog, and refuse to work outside a root', async () => {
    const controller = createConfirmationController({ room: createScriptedRoom() });
    function Risk() {
      const { descriptor, labels, status } = useConfirmToolDialog();
      return (
        <p data-testid="risk">
          {labels.all.risk[descriptor.risk]} / {status}
        </p>
      );
    }
    strict(
      <Compact controller={controller}>
        <Risk />
      </Compact>,
    );
    queue(controller, ['a']);
    await waitFor(() => expect(screen.getByTestId('risk')).toHaveTextContent('High risk / reviewing'));
    act(() => void controller.withdrawAll());
    vi.spyOn(console, 'error').mockImplementation(() => {});
    expect(() => render(<ConfirmToolDialogApprove />)).toThrow(/outside <ConfirmToolDialogRoot>/);
    vi.restoreAllMocks();
  });
});

describe('the dialog labels', () => {
  it('refuse a __proto__ key at either level, as mergeLabels does: it never reaches a prototype', () => {
    const hostile = JSON.parse('{"__proto__": {"approve": "pwned"}, "status": {"__proto__": {"done": "pwned"}, "done": "Finished"}, "deny": "Refuse"}') as ConfirmToolLabelsOverride;
    const merged = mergeConfirmLabels(defaultConfirmLabels, hostile);
    expect(Object.getPrototypeOf(merged)).toBe(Object.prototype);
    expect(Object.getPrototypeOf(merged.status)).toBe(Object.prototype);
    expect(Object.hasOwn(merged, '__proto__') || Object.hasOwn(merged.status, '__proto__')).toBe(false);
    expect(merged.approve).toBe('Approve');
    expect(merged.deny).toBe('Refuse');
    expect(merged.status).toMatchObject({ done: 'Finished', invoking: defaultConfirmLabels.status.invoking });
    expect(({} as { approve?: unknown }).approve).toBeUndefined();
  });

  it('refuse it through the dialog’s labels prop too', async () => {
    const user = userEvent.setup();
    const hostile = JSON.parse('{"__proto__": {"approve": "pwned", "deny": "pwned"}, "approve": "Send"}') as ConfirmToolLabelsOverride;
    function Page() {
      const [open, setOpen] = useState(false);
      return (
        <>
          <button type="button" onClick={() => setOpen(true)}>
            Propose
          </button>
          <ConfirmToolDialog open={open} onOpenChange={setOpen} toolName="t" arguments={{}} room={createScriptedRoom()} labels={hostile} />
        </>
      );
    }
    strict(<Page />);
    await user.click(screen.getByRole('button', { name: 'Propose' }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByRole('button', { name: 'Send' })).toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: 'Deny' })).toBeInTheDocument();
  });
});

describe('ConfirmToolDialog after a refusal before review', () => {
  it('can be closed with Close or Escape: nothing runs any more', async () => {
    const user = userEvent.setup();
    const onOpenChange = vi.fn();
    function Page() {
      const [open, setOpen] = useState(false);
      return (
        <>
          <button type="button" onClick={() => setOpen(true)}>
            Propose
          </button>
          <ConfirmToolDialog
            open={open}
            onOpenChange={(next) => {
              setOpen(next);
              onOpenChange(next);
            }}
            toolName="t"
            arguments={{ callback: () => 1 }}
            room={createScriptedRoom()}
          />
        </>
      );
    }
    strict(<Page />);
    for (const close of [() => user.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Close' })), () => user.keyboard('{Escape}')]) {
      await user.click(screen.getByRole('button', { name: 'Propose' }));
      const dialog = await screen.findByRole('dialog');
      expect(within(dialog).getByRole('alert')).toHaveTextContent('not JSON');
      await waitFor(() => expect(within(dialog).getByRole('button', { name: 'Close' })).toHaveFocus());
      expect(within(dialog).getByRole('button', { name: 'Close' })).not.toHaveAttribute('aria-disabled');
      await close();
      await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    }
    expect(onOpenChange.mock.calls).toEqual([[false], [false]]);
  });
});
