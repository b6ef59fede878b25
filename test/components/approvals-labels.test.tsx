/**
 * The strings of the approvals beyond approve and deny (editor, grants, list of several, time left) come
 * from the labels, so an application can translate every one of them.
 */
import { StrictMode } from 'react';
import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { ConfirmBatch, ConfirmToolDialog, ToolGrantList, ToolgateLabelsProvider, ToolgateProvider, createConfirmationController, defaultLabels, type ToolgateLabels } from 'toolgate';
import { createManualClock } from 'toolgate/testing';
import { englishWords, markers, visibleText } from './label-markers';

describe('labels of the editor, grants, batches and expiry', () => {
  it('replace every string of the editor, the grants, the list of several and the time left', async () => {
    const user = userEvent.setup();
    const labels = markers(defaultLabels, 'A') as ToolgateLabels;
    const clock = createManualClock({ start: Date.UTC(2026, 11, 1, 12) });
    const controller = createConfirmationController({ clock });
    const schema = { type: 'object', properties: { q1: { type: 'number' }, v2: { type: 'boolean' }, w3: { type: 'array' } } };
    controller.request({
      toolName: 'z9',
      arguments: { q1: 1, v2: false, w3: [] },
      descriptor: { effect: 'write', risk: 'high', requiresConfirmation: true },
      editable: { schema },
      expiresAt: clock.now() + 90_000,
      onApprove: () => null,
    });
    controller.request({ toolName: 'y8', arguments: { q: 1 }, descriptor: { effect: 'read', risk: 'low', requiresConfirmation: true }, onApprove: () => null });
    act(() => void controller.grants.deny('x7'));
    const { container } = render(
      <StrictMode>
        <ToolgateProvider confirmations={controller}>
          <ToolgateLabelsProvider labels={labels}>
            <ToolGrantList />
            <ConfirmBatch clock={clock} />
            <ConfirmToolDialog clock={clock} />
          </ToolgateLabelsProvider>
        </ToolgateProvider>
      </StrictMode>,
    );
    const dialog = await screen.findByRole('dialog');
    await waitFor(() => expect(dialog).toHaveAttribute('data-status', 'reviewing'));
    await waitFor(() => expect(container.querySelectorAll('.toolgate-batch-list > li')).toHaveLength(2));
    await act(() => clock.advance(31_000));
    const seen: string[] = [visibleText(container), visibleText(dialog)];
    // The editor, with a field that is not a number (names with digits, so no label runs into a word).
    const buttons = within(dialog).getAllByRole('button');
    await user.click(buttons.find((button) => button.classList.contains('toolgate-confirm-edit')) as HTMLElement);
    const fields = await within(dialog).findAllByRole('textbox');
    await user.clear(fields[0] as HTMLElement);
    await user.type(fields[0] as HTMLElement, 'x');
    seen.push(visibleText(dialog));
    const words = englishWords();
    const english = seen
      .join(' ')
      .match(/[A-Za-z]{3,}/g)
      ?.filter((word) => words.has(word.toLowerCase()));
    expect(english ?? []).toEqual([]);
  });
});
