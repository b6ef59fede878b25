/**
 * No flashing: with `steady`, a call whose start and end arrive within a frame shows its end only:
 * the card never puts a streaming or running state in the page, not even for one commit. A call
 * that runs longer is shown running, and its fragments stream as they come.
 */
import { StrictMode } from 'react';
import { act, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { ToolCallCard, ToolgateProvider, createToolStreamStore, type ToolStreamStore } from 'toolgate';
import { toolEvents as e } from 'toolgate/testing';

/** Every `data-status` a card had in the page, in order, however briefly (a MutationObserver sees each commit). */
function watchStatuses(root: HTMLElement) {
  const seen: string[] = [];
  const note = (value: string | null | undefined) => {
    if (value && seen[seen.length - 1] !== value) seen.push(value);
  };
  const cards = (node: Node): HTMLElement[] =>
    node instanceof HTMLElement ? [...(node.tagName === 'ARTICLE' ? [node] : []), ...node.querySelectorAll<HTMLElement>('article')] : [];
  const read = (records: MutationRecord[]) => {
    // A card added and changed in one batch is read as it was when added: its first change's old value.
    const firstOld = new Map<Node, string | null>();
    for (const record of records) if (record.type === 'attributes' && !firstOld.has(record.target)) firstOld.set(record.target, record.oldValue);
    for (const record of records) {
      if (record.type === 'attributes') note(record.oldValue);
      else for (const node of record.addedNodes) for (const card of cards(node)) note(firstOld.has(card) ? firstOld.get(card) : card.dataset['status']);
    }
  };
  const observer = new MutationObserver(read);
  observer.observe(root, { subtree: true, childList: true, attributes: true, attributeFilter: ['data-status'], attributeOldValue: true });
  return {
    statuses: () => {
      read(observer.takeRecords());
      const last = root.querySelector('article')?.dataset['status'];
      const all = [...seen];
      if (last && all[all.length - 1] !== last) all.push(last);
      return all;
    },
    stop: () => observer.disconnect(),
  };
}

const stops: (() => void)[] = [];
afterEach(() => stops.splice(0).forEach((stop) => stop()));

function setup(steady: boolean | undefined) {
  const store: ToolStreamStore = createToolStreamStore();
  let watch: ReturnType<typeof watchStatuses> | undefined;
  const send = (...events: unknown[]) => {
    act(() => events.forEach((event) => store.getState().dispatch(event)));
    watch?.statuses();
  };
  const { container } = render(
    <StrictMode>
      <ToolgateProvider store={store} steady={steady}>
        <ToolCallCard callId="c1" />
      </ToolgateProvider>
    </StrictMode>,
  );
  watch = watchStatuses(container);
  stops.push(watch.stop);
  return { send, watch };
}

const start = [e.start('c1', { name: 'read_file' }), e.delta('c1', '{"path":'), e.delta('c1', '"a.txt"}')];

describe('a call that starts and ends within a frame', () => {
  it('never shows its streaming or running state, one commit apart or in one', async () => {
    const { send, watch } = setup(true);
    send(...start); // one commit: the call streams…
    send(e.complete('c1', { path: 'a.txt' })); // …another: it runs…
    send(e.settled('c1', true)); // …and ends, all before a frame.
    expect(watch.statuses()).toEqual(['settled']);
    expect(screen.getByRole('article', { name: 'read_file' })).toHaveAttribute('data-status', 'settled');
  });

  it('shows the end at once: an ending never waits', () => {
    const { send } = setup(true);
    send(...start, e.complete('c1', { path: 'a.txt' }));
    send(e.settled('c1', false, 'FAILED'));
    expect(screen.getByRole('article', { name: 'read_file' })).toHaveAttribute('data-outcome', 'error');
  });

  it('shows a call that runs longer than two frames as running, then its end', async () => {
    const { send, watch } = setup(true);
    send(...start, e.complete('c1', { path: 'a.txt' }));
    await waitFor(() => expect(screen.getByRole('article', { name: 'read_file' })).toHaveAttribute('data-status', 'issued'));
    send(e.settled('c1', true));
    expect(watch.statuses()).toEqual(['issued', 'settled']);
  });

  it('streams the fragments of a status already shown without waiting', async () => {
    const { send } = setup(true);
    send(e.start('c1', { name: 'read_file' }), e.delta('c1', '{"path":"a'));
    await waitFor(() => expect(screen.getByRole('article', { name: 'read_file' })).toHaveAttribute('data-status', 'streaming'));
    send(e.delta('c1', 'bc.txt'));
    expect(screen.getByRole('article', { name: 'read_file' })).toHaveTextContent('abc.txt');
  });

  it('holds the card steady by default, with no steady prop anywhere', () => {
    const { send, watch } = setup(undefined);
    send(...start);
    send(e.complete('c1', { path: 'a.txt' }));
    send(e.settled('c1', true));
    expect(watch.statuses()).toEqual(['settled']);
  });

  it('shows every state at once with steady={false}', () => {
    const { send, watch } = setup(false);
    send(...start);
    send(e.complete('c1', { path: 'a.txt' }));
    send(e.settled('c1', true));
    expect(watch.statuses()).toEqual(['streaming', 'issued', 'settled']);
  });
});
