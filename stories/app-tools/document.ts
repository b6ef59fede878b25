/**
 * The document the editing story's app tool changes: a few blocks, a slow "backend" to load
 * them from, and a log of committed edits. Plain TypeScript, no React.
 *
 * It follows (docs/protocol.md, "App tools"): every edit carries its call id as an
 * idempotency key (applying the same operation again changes nothing) and its turn id as a
 * group, so a whole turn can be undone at once.
 */

export interface Block {
  readonly id: string;
  readonly label: string;
  readonly text: string;
}

export interface Edit {
  /** The call id: the idempotency key. */
  readonly operationId: string;
  /** The turn id: the undo group. */
  readonly group: string;
  readonly blockId: string;
  readonly before: string;
  readonly after: string;
  readonly undone: boolean;
}

export interface DocumentState {
  readonly blocks: readonly Block[];
  /** Committed edits, oldest first. */
  readonly edits: readonly Edit[];
}

/** The timers behind the backend's latency: real ones for people, a manual clock under test. */
export interface Timers {
  setTimeout(callback: () => void, ms: number): unknown;
}

export interface EditableDocument {
  getState(): DocumentState;
  subscribe(listener: () => void): () => void;
  /** Fetch a block (takes `loadMs`). */
  load(blockId: string): Promise<Block>;
  /** Prepare the new text for the block (takes `prepareMs`): here, tidy the whitespace. */
  prepare(block: Block, text: string): Promise<string>;
  /** Commit one edit. Applying an `operationId` again returns the first edit and changes nothing. */
  apply(edit: { blockId: string; text: string; operationId: string; group: string }): Edit;
  /** Undo every edit of `group`, newest first; an edit whose block changed since is left alone. Returns how many were undone. */
  undoGroup(group: string): number;
}

export const LOAD_MS = 600;
export const PREPARE_MS = 500;

export function createDocument(blocks: readonly Block[], timers: Timers): EditableDocument {
  let state: DocumentState = { blocks, edits: [] };
  const listeners = new Set<() => void>();
  const set = (next: DocumentState) => {
    state = next;
    for (const listener of [...listeners]) listener();
  };
  const sleep = (ms: number) => new Promise<void>((resolve) => void timers.setTimeout(resolve, ms));
  const blockOf = (id: string) => {
    const block = state.blocks.find((b) => b.id === id);
    if (block === undefined) throw new Error(`the document has no block "${id}"`);
    return block;
  };
  const withText = (id: string, text: string) => state.blocks.map((b) => (b.id === id ? { ...b, text } : b));

  return {
    getState: () => state,
    subscribe(listener) {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
    async load(blockId) {
      await sleep(LOAD_MS);
      return blockOf(blockId);
    },
    async prepare(_block, text) {
      await sleep(PREPARE_MS);
      return text.replace(/\s+/g, ' ').trim();
    },
    apply({ blockId, text, operationId, group }) {
      // seed: callId as an idempotency key. A replayed operation (a retry, a resend) is a no-op.
      const done = state.edits.find((e) => e.operationId === operationId);
      if (done) return done;
      const edit: Edit = { operationId, group, blockId, before: blockOf(blockId).text, after: text, undone: false };
      set({ blocks: withText(blockId, text), edits: [...state.edits, edit] });
      return edit;
    },
    undoGroup(group) {
      let blocksNow = state.blocks;
      let undone = 0;
      const edits = [...state.edits];
      for (let i = edits.length - 1; i >= 0; i--) {
        const edit = edits[i] as Edit;
        if (edit.group !== group || edit.undone) continue;
        const block = blocksNow.find((b) => b.id === edit.blockId);
        // Only undo what is still there: a later turn's edit of the same block wins.
        if (block === undefined || block.text !== edit.after) continue;
        blocksNow = blocksNow.map((b) => (b.id === edit.blockId ? { ...b, text: edit.before } : b));
        edits[i] = { ...edit, undone: true };
        undone++;
      }
      if (undone > 0) set({ blocks: blocksNow, edits });
      return undone;
    },
  };
}
