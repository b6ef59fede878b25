/**
 * Shared pieces of the confirmation stories: a page that proposes one call through a scripted
 * room, a page that queues several through the provider, and helpers for play functions.
 * Not a story file itself.
 */
import { useState } from 'react';
import { expect, userEvent, waitFor, within } from 'storybook/test';
import {
  ConfirmToolDialog,
  ToolgateProvider,
  useToolConfirmation,
  type ConfirmToolDialogProps,
  type ConfirmationController,
  type ConfirmationOutcome,
  type JsonValue,
  type ToolDescriptor,
  type ToolRoom,
} from 'toolgate';
import { createScriptedRoom, type ScriptedRoom, type ScriptedRoomOptions } from 'toolgate/testing';
import { Frame, storySpeed } from '../support/scenarios';

export { storySpeed };

/** The story's own argument: how fast the room answers (1 is real time; instant when run as a test). */
export interface ConfirmStoryArgs extends ConfirmToolDialogProps {
  speed: number;
}

/** What a room call waits at speed 1, so a person watching sees `confirming` and `invoking`. */
export const ROOM_DELAY_MS = 700;

export const descriptors = {
  lowRead: { title: 'Search flights', effect: 'read', risk: 'low', requiresConfirmation: true, requiredAction: 'tool:invoke:search_flights', description: 'Looks up fares; books nothing.' },
  mediumWrite: { title: 'Write a file', effect: 'write', risk: 'medium', requiresConfirmation: true, requiredAction: 'tool:invoke:write_file', description: 'Creates or replaces a file in the workspace.' },
  highWrite: { title: 'Transfer money', effect: 'write', risk: 'high', requiresConfirmation: true, requiredAction: 'tool:invoke:transfer', description: 'Moves money out of the account. It cannot be undone here.' },
} satisfies Record<string, ToolDescriptor>;

export const transferArgs = { from: 'checking', to: 'DE89 3704 0044 0532 0130 00', amount: 1250, currency: 'EUR', reference: 'Invoice 2025-014' };

/** One line per outcome, for the page beside the dialog. */
export function describeOutcome(outcome: ConfirmationOutcome): string {
  switch (outcome.status) {
    case 'done':
      return `done: ${JSON.stringify(outcome.output) ?? 'no output'} (fingerprint ${outcome.fingerprint.slice(0, 12)}…)`;
    case 'denied':
      return outcome.reason === undefined ? 'denied' : `denied: ${outcome.reason}`;
    case 'expired':
      return 'expired';
    case 'responded':
      return `responded: ${JSON.stringify(outcome.output)}`;
    case 'cancelled':
      return outcome.reason === undefined ? 'cancelled' : `cancelled: ${outcome.reason}`;
    default:
      return `${outcome.status}: ${outcome.reason}`;
  }
}

/**
 * A wait that never ends under test, so the play function reads the state it holds (and the
 * promise is still pending when the play function ends); when watched it ends after `ms / speed`.
 * `ms` Infinity: never, watched or not (a gallery of states).
 */
export function held(speed: number, ms = 8000): Promise<void> {
  return new Promise((resolve) => {
    const pace = storySpeed(speed);
    // Under test the pace is Infinity (instant): ms / pace is 0, and nothing is scheduled.
    if (Number.isFinite(pace) && Number.isFinite(ms)) setTimeout(resolve, ms / pace);
  });
}

/** A room that holds `method` (never answers while under test; answers after `ms / speed` when watched). */
export function holdingRoom(room: ToolRoom, method: 'confirmTool' | 'invokeTool', speed: number, ms = 8000): ToolRoom {
  const gate = (): Promise<void> => held(speed, ms);
  return {
    confirmTool: async (name, args) => {
      if (method === 'confirmTool') await gate();
      return room.confirmTool(name, args);
    },
    invokeTool: async (name, args, id) => {
      if (method === 'invokeTool') await gate();
      return id === undefined ? room.invokeTool(name, args) : room.invokeTool(name, args, id);
    },
  };
}

/**
 * Web Crypto whose digest waits on {@link held}: without its fingerprint a request stays `idle`
 * ("Preparing…"), which is otherwise over within a frame.
 */
export function heldCrypto(speed: number, ms?: number): { subtle: SubtleCrypto } {
  const digest = async (algorithm: AlgorithmIdentifier, data: BufferSource): Promise<ArrayBuffer> => {
    await held(speed, ms);
    return globalThis.crypto.subtle.digest(algorithm, data);
  };
  return { subtle: { digest } as unknown as SubtleCrypto };
}

export interface ProposalProps extends Omit<ConfirmToolDialogProps, 'open' | 'onOpenChange' | 'room' | 'onResult'> {
  speed: number;
  /** The scripted room's options (its speed comes from the story). */
  roomOptions?: Omit<ScriptedRoomOptions, 'speed'>;
  /** Wrap the scripted room (e.g. to hold a call in flight). */
  wrapRoom?: (room: ScriptedRoom, speed: number) => ToolRoom;
  /** Without a room: the path through `onApprove`. */
  noRoom?: boolean;
  /** Given the room, for a `checkOutcome` that looks at what it did. */
  check?: (room: ScriptedRoom) => ConfirmToolDialogProps['checkOutcome'];
  /** A controller of the story's own (made once), e.g. one whose Web Crypto is held. */
  makeController?: () => ConfirmationController;
  label?: string;
}

/**
 * A page that proposes one call: a button opens the dialog, and the outcomes it reports are
 * listed beside it, with what the room recorded (calls and effects).
 */
export function Proposal({ speed, roomOptions, wrapRoom, noRoom, check, makeController, label, ...dialog }: ProposalProps) {
  const [scripted] = useState(() => createScriptedRoom({ delayMs: ROOM_DELAY_MS, ...roomOptions, speed: storySpeed(speed) }));
  const [room] = useState(() => (wrapRoom ? wrapRoom(scripted, speed) : scripted));
  const [controller] = useState(() => makeController?.());
  const [open, setOpen] = useState(false);
  const [outcomes, setOutcomes] = useState<ConfirmationOutcome[]>([]);
  return (
    <Frame>
      <p style={{ margin: 0 }}>
        <button type="button" className="toolgate-button" onClick={() => setOpen(true)}>
          {label ?? `Propose ${dialog.toolName ?? 'the call'}`}
        </button>
      </p>
      <output aria-label="Outcomes" data-testid="outcomes" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
        {outcomes.length === 0 ? 'No outcome yet' : outcomes.map(describeOutcome).join('\n')}
      </output>
      <p style={{ margin: 0, color: 'var(--toolgate-muted)' }} data-testid="room">
        Room: {scripted.calls.length} calls, {scripted.effects.length} effects
      </p>
      <ConfirmToolDialog
        {...dialog}
        {...(noRoom ? {} : { room })}
        {...(check ? { checkOutcome: check(scripted) } : {})}
        {...(controller ? { controller } : {})}
        open={open}
        onOpenChange={setOpen}
        onResult={(outcome) => setOutcomes((previous) => [...previous, outcome])}
      />
    </Frame>
  );
}

/** One request a queue page proposes: through the provider's room, or through `onApprove` (the path without a room, where "Respond instead" is offered). */
export interface QueuedRequest {
  toolName: string;
  arguments: unknown;
  descriptor?: ToolDescriptor;
  /** The tool's output schema: "Respond instead" is a form of it. */
  outputSchema?: Record<string, unknown>;
  onApprove?: (args: JsonValue) => unknown;
}

/** Queue several requests with the provider's controller, and show them with the provider-driven dialog. */
export function QueuePage({ speed, requests }: { speed: number; requests: readonly QueuedRequest[] }) {
  const [room] = useState(() => createScriptedRoom({ delayMs: ROOM_DELAY_MS, speed: storySpeed(speed) }));
  return (
    <ToolgateProvider room={room}>
      <Frame>
        <QueueButton requests={requests} />
        <ConfirmToolDialog />
      </Frame>
    </ToolgateProvider>
  );
}

function QueueButton({ requests }: { requests: readonly QueuedRequest[] }) {
  const { request, last } = useToolConfirmation();
  const [outcomes, setOutcomes] = useState<string[]>([]);
  return (
    <>
      <p style={{ margin: 0 }}>
        <button
          type="button"
          className="toolgate-button"
          onClick={() => {
            for (const item of requests) {
              void request({
                toolName: item.toolName,
                arguments: item.arguments,
                descriptor: item.descriptor ?? null,
                ...(item.outputSchema === undefined ? {} : { outputSchema: item.outputSchema }),
                ...(item.onApprove === undefined ? {} : { onApprove: item.onApprove }),
              }).then((outcome) =>
                setOutcomes((previous) => [...previous, `${item.toolName}: ${describeOutcome(outcome)}`]),
              );
            }
          }}
        >
          Queue {requests.length} requests
        </button>
      </p>
      <output aria-label="Outcomes" data-testid="outcomes" style={{ whiteSpace: 'pre-wrap' }}>
        {outcomes.length === 0 ? 'No outcome yet' : outcomes.join('\n')}
      </output>
      {last && <p style={{ margin: 0, color: 'var(--toolgate-muted)' }}>Last: {last.toolName}</p>}
    </>
  );
}

/* ------------------------------------------------------------ play helpers */

/** The whole document: Radix portals the dialog into `document.body`, outside the canvas. */
export const page = (canvasElement: HTMLElement) => within(canvasElement.ownerDocument.body);

/** Open the dialog with the page's button and wait until it is being reviewed. */
export async function openDialog(canvasElement: HTMLElement, name: RegExp = /^Propose/): Promise<HTMLElement> {
  const body = page(canvasElement);
  await userEvent.click(body.getByRole('button', { name }));
  const dialog = await body.findByRole('dialog');
  await waitFor(() => expect(dialog).toHaveAttribute('data-status', 'reviewing'));
  return dialog;
}

/** Wait until the dialog has `status`. */
export async function untilStatus(dialog: HTMLElement, status: string): Promise<void> {
  await waitFor(() => expect(dialog).toHaveAttribute('data-status', status));
}

/** Wait until the dialog is gone. */
export async function untilClosed(canvasElement: HTMLElement): Promise<void> {
  await waitFor(() => expect(page(canvasElement).queryByRole('dialog')).toBeNull());
}

/** The outcomes the page lists (readable while the dialog hides the page from assistive technology too). */
export const outcomesText = (canvasElement: HTMLElement): string => canvasElement.querySelector('[data-testid="outcomes"]')?.textContent ?? '';
