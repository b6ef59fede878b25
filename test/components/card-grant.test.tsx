/**
 * A call that a standing grant answered says so on its card, naming the grant.
 */
import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { ToolCallCard, createToolStreamStore } from 'toolgate';
import { callEvents } from 'toolgate/testing';
import { renderWith } from './helpers';

function storeWith(mark: Parameters<ReturnType<ReturnType<typeof createToolStreamStore>['getState']>['markApproval']>[1]) {
  const store = createToolStreamStore();
  for (const event of callEvents('c1', { name: 'search_docs', arguments: { q: 'a' }, outcome: 'open' })) store.getState().dispatch(event);
  store.getState().markApproval('c1', mark);
  return store;
}

describe('a card answered by a grant', () => {
  it('names the grant that approved the call', async () => {
    const store = storeWith({ approval: 'approved', approvedArguments: { q: 'a' }, grant: 'grant-3' });
    renderWith(store, <ToolCallCard callId="c1" />);
    const note = within(await screen.findByRole('article')).getByText('Answered by a standing grant: search_docs is allowed for this session');
    expect(note).toHaveAttribute('data-grant', 'grant-3');
  });

  it('names the grant that denied the call', async () => {
    const store = storeWith({ approval: 'denied', grant: 'grant-4', reason: 'denied for this session' });
    renderWith(store, <ToolCallCard callId="c1" />);
    expect(within(await screen.findByRole('article')).getByText('Answered by a standing grant: search_docs is denied for this session')).toHaveAttribute('data-grant', 'grant-4');
  });

  it('says nothing of grants for a call a person approved', async () => {
    const store = storeWith({ approval: 'approved', approvedArguments: { q: 'a' } });
    renderWith(store, <ToolCallCard callId="c1" />);
    // The card is drawn first (held steady for two frames), so the absence below means something.
    await screen.findByRole('article');
    expect(screen.queryByText(/standing grant/)).toBeNull();
  });
});
