import { useEffect, useId, useState, useSyncExternalStore, type CSSProperties } from 'react';
import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, userEvent, waitFor, within } from 'storybook/test';
import { z } from 'zod';
import { ToolCallList, useAppTool, useInterrupt } from 'toolgate';
import { createManualClock, step, toolEvents as e, type ManualClock, type ScriptStep } from 'toolgate/testing';
import { LOAD_MS, PREPARE_MS, createDocument, type Block, type EditableDocument } from './document';
import { AppToolCard, ScriptedApp, storySpeed } from './support';

interface Args {
  /** How fast the session and the document's backend go: 1 is real time (instant when run as a test). */
  speed: number;
}

/**
 * An app tool that edits a document in the page, written the way docs/protocol.md, "App tools" asks
 * ("Cancellation and atomicity"):
 *
 * - the signal is checked after every await and right before committing, so an interrupted call
 *   changes nothing, even though its run goes on for a while (cancellation is cooperative);
 * - every edit carries its `callId` as an idempotency key, so a repeated call is applied once;
 * - edits are grouped by `turnId`, so a whole turn can be undone at once.
 *
 * A scripted session plays the model's turns; **Interrupt turn** uses `useInterrupt`, which
 * cancels the turn's calls here at once, aborts the running tool and tells the server.
 */
const meta = {
  title: 'App tools/Document editing',
  tags: ['autodocs'],
  args: { speed: 1 },
  argTypes: { speed: { control: { type: 'range', min: 0.25, max: 4, step: 0.25 } } },
  parameters: { layout: 'padded' },
  // The document's backend runs on the story's own manual clock. Watched, it ticks by itself at
  // the story's speed; once a play function takes it (under test, or when the story is opened in
  // Storybook and its play function runs) only the play function moves it.
  loaders: [() => ({ clock: createManualClock(), pace: { driven: false } satisfies Pace })],
} satisfies Meta<Args>;
export default meta;
type Story = StoryObj<Args>;

/* ------------------------------------------------------------------- model */

const BLOCKS: readonly Block[] = [
  { id: 'title', label: 'Title', text: 'Quarterly report' },
  { id: 'intro', label: 'Introduction', text: 'Revenue grew in most regions.' },
  { id: 'summary', label: 'Summary', text: 'Next steps are still open.' },
];

/** Which turn the model is in, as the script says (the wire has no turn events of its own). */
function createTurns() {
  let open: string | null = null;
  const listeners = new Set<() => void>();
  const set = (next: string | null) => {
    open = next;
    for (const listener of [...listeners]) listener();
  };
  return {
    get: () => open,
    subscribe(listener: () => void) {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
    begin: (turnId: string) => set(turnId),
    end: (turnId: string) => {
      if (open === turnId) set(null);
    },
  };
}
type Turns = ReturnType<typeof createTurns>;

/** Whether a play function has taken the story's clock (then it no longer ticks by itself). */
interface Pace {
  driven: boolean;
}

/** Ticks `clock` by itself at `speed` (not under test, where time is only what the play function gives) until a play function takes it. */
function usePacedClock(clock: ManualClock, pace: Pace, speed: number): void {
  useEffect(() => {
    const rate = storySpeed(speed);
    if (!Number.isFinite(rate)) return;
    const STEP_MS = 50;
    const timer = setInterval(() => {
      if (!pace.driven) void clock.advance(STEP_MS * rate);
    }, STEP_MS);
    return () => clearInterval(timer);
  }, [clock, pace, speed]);
}

/* --------------------------------------------------------------- the tool */

const editArgs = z.object({
  blockId: z.enum(['title', 'intro', 'summary']),
  text: z.string().min(1),
});

function EditTool({ doc }: { doc: EditableDocument }) {
  const view = useAppTool({
    name: 'edit_block',
    description: 'Replace the text of one block of the document',
    parameters: {
      type: 'object',
      required: ['blockId', 'text'],
      properties: { blockId: { type: 'string', enum: ['title', 'intro', 'summary'] }, text: { type: 'string' } },
    },
    validate: editArgs,
    async run({ blockId, text }, { signal, callId, turnId, emit }) {
      emit(`Loading block “${blockId}”…`);
      const block = await doc.load(blockId);
      if (signal.aborted) return null; // interrupted while loading: change nothing
      emit(`Preparing the edit of “${blockId}”…`);
      const prepared = await doc.prepare(block, text);
      if (signal.aborted) return null; // interrupted while preparing: change nothing
      // Right before committing: nothing awaited between this check and the commit.
      const edit = doc.apply({ blockId, text: prepared, operationId: callId, group: turnId });
      return { blockId, operationId: edit.operationId };
    },
  });
  return <AppToolCard view={view} title="Edit a block" />;
}

/* ------------------------------------------------------------------ the page */

const panel: CSSProperties = {
  padding: '0.75rem 1rem',
  border: '1px solid var(--toolgate-border)',
  borderRadius: 'var(--toolgate-radius)',
  background: 'var(--toolgate-bg)',
  color: 'var(--toolgate-fg)',
};

function DocumentView({ doc }: { doc: EditableDocument }) {
  const { blocks, edits } = useSyncExternalStore(doc.subscribe, doc.getState);
  const editedBy = (blockId: string) => edits.filter((edit) => edit.blockId === blockId && !edit.undone).at(-1);
  return (
    <article aria-label="Document" style={panel}>
      {blocks.map((block) => {
        const edit = editedBy(block.id);
        const style: CSSProperties = edit ? { background: 'var(--toolgate-open-bg)', color: 'var(--toolgate-open-fg)', padding: '0 0.25rem' } : {};
        return block.id === 'title' ? (
          <h3 key={block.id} data-block={block.id} data-edited-by={edit?.operationId} style={{ marginTop: 0, ...style }}>
            {block.text}
          </h3>
        ) : (
          <p key={block.id} data-block={block.id} data-edited-by={edit?.operationId} style={style}>
            {block.text}
          </p>
        );
      })}
    </article>
  );
}

function History({ doc, turns }: { doc: EditableDocument; turns: Turns }) {
  const { edits, blocks } = useSyncExternalStore(doc.subscribe, doc.getState);
  const open = useSyncExternalStore(turns.subscribe, turns.get);
  const headingId = useId();
  const groups = [...new Set(edits.map((edit) => edit.group))];
  const label = (blockId: string) => blocks.find((b) => b.id === blockId)?.label ?? blockId;
  return (
    <section aria-labelledby={headingId} style={panel}>
      <h3 id={headingId} style={{ margin: 0, fontSize: '1rem' }}>
        Edits by turn
      </h3>
      {groups.length === 0 && <p>No edits yet.</p>}
      {groups.map((group) => {
        const ofGroup = edits.filter((edit) => edit.group === group);
        const left = ofGroup.filter((edit) => !edit.undone).length;
        return (
          <div key={group} role="group" aria-label={`Edits of ${group}`} data-group={group}>
            <p style={{ marginBottom: '0.25rem', fontWeight: 600 }}>{group}</p>
            <ol style={{ marginTop: 0 }}>
              {ofGroup.map((edit) => (
                <li key={edit.operationId} data-operation={edit.operationId} data-undone={edit.undone || undefined}>
                  {edit.undone ? <s>{describeEdit(edit, label)}</s> : describeEdit(edit, label)}
                  {edit.undone ? ' (undone)' : ''}
                </li>
              ))}
            </ol>
            <button type="button" className="toolgate-button" disabled={open === group || left === 0} onClick={() => doc.undoGroup(group)}>
              Undo {group}
            </button>
          </div>
        );
      })}
    </section>
  );
}

function describeEdit(edit: { operationId: string; blockId: string; before: string; after: string }, label: (id: string) => string): string {
  return `${edit.operationId} · ${label(edit.blockId)}: “${edit.before}” → “${edit.after}”`;
}

function InterruptButton({ turns }: { turns: Turns }) {
  const open = useSyncExternalStore(turns.subscribe, turns.get);
  const interrupt = useInterrupt();
  return (
    <button type="button" className="toolgate-button" disabled={open === null} onClick={() => open !== null && interrupt(open)}>
      Interrupt turn
    </button>
  );
}

/* ----------------------------------------------------------------- scripts */

/** One edit as the model makes it: the call's stream events, the call itself, its settle. */
function edit(callId: string, turnId: string, blockId: string, text: string): ScriptStep[] {
  const args = { blockId, text };
  return [
    step.emit(e.start(callId, { name: 'edit_block', turnId, location: 'app', risk: 'low' })),
    step.emit(e.complete(callId, args)),
    step.call({ callId, turnId, name: 'edit_block', arguments: args }),
    step.waitForResult(callId),
    step.run((session) => {
      const result = session.results.get(callId);
      session.emit(e.settled(callId, result?.ok ?? false, result && !result.ok ? result.code : undefined));
    }),
    step.delay(400),
  ];
}

const turn = (turns: Turns, turnId: string, steps: ScriptStep[]): ScriptStep[] => [
  step.run(() => turns.begin(turnId)),
  ...steps,
  step.run(() => turns.end(turnId)),
];

const scripts = {
  /** One turn of three edits: interrupt it while the second runs. */
  oneTurn: (turns: Turns) => [
    ...turn(turns, 'turn-1', [
      ...edit('e1', 'turn-1', 'title', 'Q3 report'),
      ...edit('e2', 'turn-1', 'intro', 'Revenue   grew in every region.'),
      ...edit('e3', 'turn-1', 'summary', 'Ship the pricing change in October.'),
    ]),
  ],
  /** Two turns; the server resends the last call (same callId), which is not applied twice. */
  twoTurns: (turns: Turns) => [
    ...turn(turns, 'turn-1', [...edit('e1', 'turn-1', 'title', 'Q3 report'), ...edit('e2', 'turn-1', 'intro', 'Revenue grew in every region.')]),
    step.delay(400),
    ...turn(turns, 'turn-2', [
      ...edit('e3', 'turn-2', 'summary', 'Ship the pricing change in October.'),
      // A resend after a lost response: the host answers it with the first result, without a second run.
      step.call({ callId: 'e3', turnId: 'turn-2', name: 'edit_block', arguments: { blockId: 'summary', text: 'Ship the pricing change in October.' } }),
    ]),
  ],
};

function DocumentStory({ speed, loaded, script }: { speed: number; loaded: Record<string, unknown>; script: keyof typeof scripts }) {
  const { clock, pace } = storyClock(loaded);
  usePacedClock(clock, pace, speed);
  const [turns] = useState(createTurns);
  const [doc] = useState(() => createDocument(BLOCKS, clock));
  const [play] = useState(() => () => scripts[script](turns));
  return (
    <ScriptedApp
      script={play}
      speed={speed}
      options={{
        // The server stops the turn when the page interrupts it.
        onSend: (message, session) => {
          if (message.type !== 'turn.interrupt') return;
          session.stop();
          turns.end(message.turnId);
        },
      }}
    >
      <div style={{ display: 'flex', gap: '0.5rem' }}>
        <InterruptButton turns={turns} />
      </div>
      <div style={{ display: 'grid', gap: '1rem', gridTemplateColumns: 'repeat(auto-fit, minmax(18rem, 1fr))' }}>
        <DocumentView doc={doc} />
        <EditTool doc={doc} />
      </div>
      <History doc={doc} turns={turns} />
      <ToolCallList />
    </ScriptedApp>
  );
}

/* ----------------------------------------------------------------- helpers */

const storyClock = (loaded: Record<string, unknown>): { clock: ManualClock; pace: Pace } => ({ clock: loaded['clock'] as ManualClock, pace: loaded['pace'] as Pace });
/** The story's clock, taken by the play function: from now on only it moves the clock. */
const clockOf = (loaded: Record<string, unknown>): ManualClock => {
  const { clock, pace } = storyClock(loaded);
  pace.driven = true;
  return clock;
};
const blockText = (root: HTMLElement, id: string) => root.querySelector(`[data-block="${id}"]`)?.textContent;
const toolCard = (root: HTMLElement) => within(root).getByRole('article', { name: 'Edit a block' });

/* ----------------------------------------------------------------- stories */

/**
 * Interrupt the turn while its second edit is being prepared: that call answers INTERRUPTED at
 * once, its run finishes later and sees its signal aborted, and nothing of it (or of the edit
 * after it) is committed. The first edit was committed before the interrupt; **Undo turn-1**
 * takes it back.
 */
export const InterruptMidTurn: Story = {
  render: ({ speed }, { loaded }) => <DocumentStory key={speed} speed={speed} loaded={loaded} script="oneTurn" />,
  play: async ({ canvasElement, loaded }) => {
    const clock = clockOf(loaded);
    const canvas = within(canvasElement);
    const card = toolCard(canvasElement);

    // e1 runs to its commit.
    await waitFor(() => expect(within(card).getByTestId('progress')).toHaveTextContent('Loading block “title”…'));
    await clock.advance(LOAD_MS);
    await waitFor(() => expect(within(card).getByTestId('progress')).toHaveTextContent('Preparing the edit of “title”…'));
    await clock.advance(PREPARE_MS);
    await waitFor(() => expect(blockText(canvasElement, 'title')).toBe('Q3 report'));

    // e2 loads its block and is preparing its edit when the person interrupts.
    await waitFor(() => expect(within(card).getByTestId('call')).toHaveTextContent('e2 (running)'));
    await clock.advance(LOAD_MS);
    await waitFor(() => expect(within(card).getByTestId('progress')).toHaveTextContent('Preparing the edit of “intro”…'));
    await userEvent.click(canvas.getByRole('button', { name: 'Interrupt turn' }));

    // Answered at once, without waiting for the run.
    await waitFor(() => expect(within(card).getByTestId('last-result')).toHaveTextContent(/^e2 → INTERRUPTED/));
    await expect(within(card).getByTestId('status')).toHaveTextContent('Idle');
    await expect(canvas.getByRole('button', { name: 'Interrupt turn' })).toBeDisabled();

    // The run goes on, finds its signal aborted right before committing, and changes nothing.
    await clock.runAll();
    await expect(clock.pending).toBe(0);
    await expect(blockText(canvasElement, 'intro')).toBe('Revenue grew in most regions.');
    await expect(blockText(canvasElement, 'summary')).toBe('Next steps are still open.');
    const turn1 = canvas.getByRole('group', { name: 'Edits of turn-1' });
    await expect(within(turn1).getAllByRole('listitem').map((item) => item.dataset['operation'])).toEqual(['e1']);
    // The stream shows the turn's open call cancelled here.
    await expect(canvasElement.querySelectorAll('.toolgate-card[data-status="cancelled"]')).toHaveLength(1);

    // Undo the whole turn: what it committed goes too.
    await userEvent.click(within(turn1).getByRole('button', { name: 'Undo turn-1' }));
    await expect(blockText(canvasElement, 'title')).toBe('Quarterly report');
    await expect(within(turn1).getByRole('button', { name: 'Undo turn-1' })).toBeDisabled();
  },
};

/**
 * Two turns run to the end; a resent call (same callId) is answered without a second edit.
 * **Undo turn-1** takes back both of its edits and leaves turn-2's.
 */
export const UndoWholeTurn: Story = {
  render: ({ speed }, { loaded }) => <DocumentStory key={speed} speed={speed} loaded={loaded} script="twoTurns" />,
  play: async ({ canvasElement, loaded }) => {
    const clock = clockOf(loaded);
    const canvas = within(canvasElement);
    await waitFor(() => expect(within(toolCard(canvasElement)).getByTestId('call')).toHaveTextContent('e1'));
    // Step the backend until both turns are done (each fire lets the next call start).
    await waitFor(async () => {
      await clock.runAll();
      await expect(within(toolCard(canvasElement)).getByTestId('last-result')).toHaveTextContent(/^e3 → ok/);
      await expect(canvas.getByRole('button', { name: 'Interrupt turn' })).toBeDisabled();
    });
    await expect(blockText(canvasElement, 'title')).toBe('Q3 report');
    await expect(blockText(canvasElement, 'intro')).toBe('Revenue grew in every region.');
    await expect(blockText(canvasElement, 'summary')).toBe('Ship the pricing change in October.');
    // The resend of e3 changed nothing: one edit per callId.
    await expect(canvasElement.querySelectorAll('[data-operation="e3"]')).toHaveLength(1);

    const turn1 = canvas.getByRole('group', { name: 'Edits of turn-1' });
    await userEvent.click(within(turn1).getByRole('button', { name: 'Undo turn-1' }));
    await expect(blockText(canvasElement, 'title')).toBe('Quarterly report');
    await expect(blockText(canvasElement, 'intro')).toBe('Revenue grew in most regions.');
    await expect(blockText(canvasElement, 'summary')).toBe('Ship the pricing change in October.');
    await expect(within(turn1).getAllByText('(undone)', { exact: false })).toHaveLength(2);
  },
};
