import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, userEvent, waitFor, within } from 'storybook/test';
import { ToolCallList, ToolgateLabelsProvider, type ToolgateLabelsOverride } from 'toolgate';
import { ScriptedApp, TravelTools, appCall, gatedCall, renderers, serverCall, trip } from './support';

interface Args {
  /** How fast the scripted session plays: 1 is real time (instant when run as a test). */
  speed: number;
  labels: ToolgateLabelsOverride;
}

/**
 * The customisation parts take their words from the same labels object as the rest of the kit:
 * `awaitingApproval`, `approvalQueued`, `output`, `renderFailed`, `personInput`, and the dialog's
 * `confirm.approve` / `confirm.deny` on the cards. Overrides merge at every depth, so
 * `{ confirm: { status: { reviewing: '…' } } }` keeps the dialog's other strings; numbers go
 * through `Intl` in the labels' `locale`.
 */
const meta = {
  title: 'Customise/Labels and locales',
  args: { speed: 1, labels: {} },
  argTypes: { speed: { control: { type: 'range', min: 0.25, max: 8, step: 0.25 } } },
  parameters: { layout: 'padded' },
} satisfies Meta<Args>;
export default meta;
type Story = StoryObj<Args>;

const french: ToolgateLabelsOverride = {
  locale: 'fr-FR',
  calls: "Appels d'outils",
  turn: (n) => `Tour ${n}`,
  status: { pending: 'En attente', streaming: 'Rédaction des arguments', issued: 'En cours', settled: 'Terminé', cancelled: 'Annulé', failed: 'Arrêté' },
  location: { server: 'Outil serveur', app: "Outil de l'application" },
  risk: { low: 'Risque faible', medium: 'Risque moyen', high: 'Risque élevé' },
  took: (d) => `Durée : ${d}`,
  elapsed: (d) => `${d} écoulées`,
  fields: (n, f) => (n === 1 ? '1 champ' : `${f} champs`),
  awaitingApproval: 'En attente de validation',
  approvalQueued: (n, f) => (n === 1 ? 'Après 1 demande' : `Après ${f} demandes`),
  output: 'Résultat de la page',
  renderFailed: (name) => `L'affichage de ${name} a échoué`,
  personInput: (name) => `Votre réponse pour ${name}`,
  announce: (name, status) => `${name} : ${status}`,
  confirm: { approve: 'Valider', deny: 'Refuser' },
};

const everything = () => [
  ...serverCall('x1', 'compare_fares', { route: 'LIS-OSL' }),
  ...gatedCall('g1', 'cancel_hotel', { booking: 'H-5521' }),
  ...gatedCall('g2', 'charge_card', { amount: 340 }),
  ...appCall('f1', 'search_flights', trip),
  ...appCall('s1', 'pick_seat', { flight: 'NA 1234', seats: ['12A', '14C'] }),
];

/** In French: the error card, both approvals (one shown, one waiting), French numbers in the flight's own view, the seat picker's group and the page's output. */
export const French: Story = {
  args: { labels: french },
  render: ({ speed, labels }) => (
    <ScriptedApp key={speed} script={everything} speed={speed}>
      <ToolgateLabelsProvider labels={labels}>
        <TravelTools />
        <ToolCallList renderers={renderers} />
      </ToolgateLabelsProvider>
    </ScriptedApp>
  ),
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await expect(canvas.getByRole('region', { name: "Appels d'outils" })).toBeVisible();
    await expect(await canvas.findByRole('article', { name: 'compare_fares' })).toHaveTextContent("L'affichage de compare_fares a échoué");
    const hotel = await canvas.findByRole('article', { name: 'cancel_hotel' });
    const waiting = within(await canvas.findByRole('article', { name: 'charge_card' })).getByRole('group', { name: 'En attente de validation' });
    await expect(waiting).toHaveTextContent('Après 1 demande');
    await expect(within(waiting).getByRole('button', { name: 'Refuser' })).toBeVisible();
    const approval = within(hotel).getByRole('group', { name: 'En attente de validation' });
    await waitFor(() => expect(within(approval).getByRole('button', { name: 'Valider' })).not.toHaveAttribute('aria-disabled'));
    await userEvent.click(within(approval).getByRole('button', { name: 'Valider' }));
    await waitFor(() => expect(within(hotel).getByText('Terminé', { selector: '.toolgate-badge' })).toBeVisible());
    // The flight's own view formats the fares through Intl in the labels' locale.
    const flight = await canvas.findByRole('article', { name: 'Flight LIS → OSL' });
    await waitFor(() => expect(within(flight).getByRole('list', { name: 'Fares' })).toHaveTextContent(/1\s249,5 EUR/));
    // The seat picker's group, and once a seat is picked, the page's output, in French.
    const seat = await canvas.findByRole('article', { name: 'pick_seat' });
    const form = await within(seat).findByRole('group', { name: 'Votre réponse pour pick_seat' });
    await userEvent.click(within(form).getByRole('radio', { name: '12A' }));
    await userEvent.click(within(form).getByRole('button', { name: 'Choose this seat' }));
    await waitFor(() => expect(within(seat).getByRole('group', { name: 'Résultat de la page' })).toHaveTextContent(/12A/));
  },
};
