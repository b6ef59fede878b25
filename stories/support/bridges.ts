/**
 * The play function the bridges' stories share: whichever agent library drives it, the page shows
 * the same three calls (weather at the agent, setTitle in the page, deleteFile behind an approval)
 * and must end with the same three cards and outputs.
 */
import { expect, userEvent, waitFor, within, type queries } from 'storybook/test';

/** A story's canvas, as `within` gives it. */
export type Canvas = ReturnType<typeof within<typeof queries>>;

/**
 * Ask, approve the deletion in the kit's dialog, then check the three cards and their outputs.
 * `ended` waits, after Approve, for the page's own sign that the loop is over (a run's status, a
 * chat's last message). It is given `allSettled`, the check that all three cards are settled, since
 * each story places it differently: asserted the moment the AG-UI run is done, waited for before
 * the AI SDK chat's last message.
 */
export async function playToolsAndApproval(
  canvasElement: HTMLElement,
  ended: (canvas: Canvas, allSettled: () => void) => Promise<void>,
): Promise<void> {
  const canvas = within(canvasElement);
  const body = within(canvasElement.ownerDocument.body);
  await userEvent.click(canvas.getByRole('button', { name: 'Ask' }));
  const dialog = await body.findByRole('dialog');
  await expect(dialog).toHaveTextContent('/tmp/forecast.txt');
  await expect(canvas.getByTestId('title')).toHaveTextContent('Oslo: clear');
  // The open dialog hides the page from assistive technology (aria-hidden): look past it.
  const cards = () => canvas.queryAllByRole('article', { hidden: true });
  // Cards are steady: the call the dialog asks about shows after its first frames.
  await waitFor(() => expect(cards().map((card) => card.dataset['status'])).toEqual(['settled', 'settled', 'issued']));
  await userEvent.click(within(dialog).getByRole('button', { name: 'Approve' }));
  await ended(canvas, () => expect(cards().map((card) => card.dataset['status'])).toEqual(['settled', 'settled', 'settled']));
  // Each card shows its call's output: the server's weather, the page's own answer, the deletion.
  const outputOf = (card: HTMLElement) => within(card).getByRole('group', { name: 'Output', hidden: true });
  const [weather, title, deleted] = cards() as [HTMLElement, HTMLElement, HTMLElement];
  await expect(outputOf(weather)).toHaveTextContent('clear');
  await expect(outputOf(title)).toHaveTextContent('Oslo: clear');
  await expect(outputOf(deleted)).toHaveTextContent('/tmp/forecast.txt');
}
