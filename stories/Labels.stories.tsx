import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect } from 'storybook/test';
import { ToolCallList, ToolTimeline, ToolgateLabelsProvider, defaultLabels, type ToolgateLabelsOverride } from 'toolgate';
import { states, withId } from './support/calls';
import { Fixed } from './support/scenarios';

/**
 * Every string the kit shows comes from one labels object (`defaultLabels`); a
 * `<ToolgateLabelsProvider>` overrides any part of it, and its `locale` drives `Intl` for numbers,
 * times and durations. Providers nest, each over the one above.
 */
const meta = {
  title: 'Guides/Labels and locales',
  component: ToolgateLabelsProvider,
  tags: ['autodocs'],
} satisfies Meta<typeof ToolgateLabelsProvider>;
export default meta;
type Story = StoryObj<typeof meta>;

const french: ToolgateLabelsOverride = {
  locale: 'fr-FR',
  status: { pending: 'En attente', streaming: 'Rédaction des arguments', issued: 'En cours', settled: 'Terminé', cancelled: 'Annulé', failed: 'Arrêté' },
  codes: { TIMEOUT: 'Délai dépassé', REJECTED: 'Refusé' },
  calls: "Appels d'outils",
  turn: (n) => `Tour ${n}`,
  arguments: 'Arguments',
  result: 'Résultat',
  took: (d) => `Durée : ${d}`,
  elapsed: (d) => `${d} écoulées`,
  fields: (n, f) => (n === 1 ? '1 champ' : `${f} champs`),
  items: (n, f) => (n === 1 ? '1 élément' : `${f} éléments`),
  progress: 'Progression',
  progressOf: (done, total) => `${done} sur ${total}`,
  location: { server: 'Outil serveur', app: "Outil de l'application" },
  risk: { low: 'Risque faible', medium: 'Risque moyen', high: 'Risque élevé' },
  timeline: 'Chronologie',
  phaseWriting: 'Rédaction',
  phaseRunning: 'Exécution',
  announce: (name, status) => `${name} : ${status}`,
};

const items = [
  ...withId(states['settledOk'] as unknown[], 'a'),
  ...withId(states['TIMEOUT'] as unknown[], 'b'),
  ...withId(states['progressDeterminate'] as unknown[], 'c', 'turn-2'),
];

export const French: Story = {
  args: { labels: french },
  render: (args) => (
    <Fixed items={items}>
      <ToolgateLabelsProvider {...args}>
        <ToolCallList />
        <ToolTimeline />
      </ToolgateLabelsProvider>
    </Fixed>
  ),
  play: async ({ canvas }) => {
    await expect(canvas.getByRole('region', { name: "Appels d'outils" })).toBeVisible();
    await expect(canvas.getByText('Terminé', { selector: '.toolgate-badge' })).toBeVisible();
    await expect(canvas.getByText('Délai dépassé', { selector: '.toolgate-badge' })).toBeVisible();
    await expect(canvas.getByText('37 sur 120 · contracts/2024')).toBeVisible();
    // Durations through Intl in the locale: "1,6 s", with a decimal comma.
    await expect(canvas.getAllByText(/^Durée : 1,6 s$/)).toHaveLength(2);
    await expect(canvas.queryByText(defaultLabels.status.settled)).toBeNull();
  },
};
