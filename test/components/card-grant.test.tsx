/**
 * A call that a standing grant answered says so on its card: the grant answered as the rule it is
 * kept as, and the card names that rule by its label ("Allowed by …").
 */
import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { render } from '@testing-library/react';
import { StrictMode } from 'react';
import { ToolCallCard, ToolgateProvider, createToolStreamStore, createToolgate } from 'toolgate';
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
    const store = storeWith({ approval: 'approved', approvedArguments: { q: 'a' }, grant: 'grant-3', by: 'rule', ruleId: 'grant-3', ruleLabel: 'search_docs for this session' });
    renderWith(store, <ToolCallCard callId="c1" />);
    const note = within(await screen.findByRole('article')).getByText('Allowed by search_docs for this session');
    expect(note).toHaveAttribute('data-grant', 'grant-3');
    expect(note).toHaveAttribute('data-rule', 'grant-3');
  });

  it('names the grant that denied the call', async () => {
    const store = storeWith({ approval: 'denied', grant: 'grant-4', by: 'rule', ruleId: 'grant-4', ruleLabel: 'search_docs for this session', reason: 'search_docs is denied for this session' });
    renderWith(store, <ToolCallCard callId="c1" />);
    expect(within(await screen.findByRole('article')).getByText('Denied by search_docs for this session')).toHaveAttribute('data-grant', 'grant-4');
  });

  it('names the session grant as the rule that answered, from the grant given to the call\'s card', async () => {
    const client = createToolgate();
    for (const event of callEvents('c1', { name: 'search_docs', arguments: { q: 'a' }, outcome: 'open' })) client.calls.getState().dispatch(event);
    const grant = client.approvals.grants.allow('search_docs');
    render(
      <StrictMode>
        <ToolgateProvider client={client}>
          <ToolCallCard callId="c1" />
        </ToolgateProvider>
      </StrictMode>,
    );
    const outcome = await client.approvals.request({ callId: 'c1', toolName: 'search_docs', arguments: { q: 'a' }, descriptor: { effect: 'read', risk: 'low', requiresConfirmation: true }, onApprove: () => 'ok' });
    expect(outcome.status).toBe('done');
    const note = await within(await screen.findByRole('article')).findByText('Allowed by search_docs for this session');
    expect(note).toHaveAttribute('data-rule', grant.id);
    client.close();
  });

  it('says nothing of grants for a call a person approved', async () => {
    const store = storeWith({ approval: 'approved', approvedArguments: { q: 'a' } });
    renderWith(store, <ToolCallCard callId="c1" />);
    // The card is drawn first (held steady for two frames), so the absence below means something.
    await screen.findByRole('article');
    expect(screen.queryByText(/Allowed by|Denied by/)).toBeNull();
  });
});
