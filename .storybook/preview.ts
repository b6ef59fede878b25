import type { Decorator, Preview } from '@storybook/react-vite';
import { configure } from 'storybook/test';
import '../src/styles.css';
import { STATE_WAIT_MS } from '../stories/support/waits';
import { preloadConfirmToolDialog } from '../src/components/confirm-tool-dialog';

// Every waitFor and findBy* of the play functions waits on what the page shows, for as long as a
// loaded 2-core machine may need to show it (the default, one second, is what one story takes to
// render there). Passing costs no time: a wait ends as soon as its check holds.
configure({ asyncUtilTimeout: STATE_WAIT_MS });

type Theme = 'light' | 'dark';

// The kit's stylesheet themes its own elements from the nearest `data-theme`; the class
// `toolgate-theme` lets the Storybook page itself (its canvas and the stories' own elements) take
// the kit's theme too, as a page that wants it would.
const withTheme: Decorator = (Story, context) => {
  const theme: Theme = context.globals['theme'] === 'dark' ? 'dark' : 'light';
  document.documentElement.setAttribute('data-theme', theme);
  document.documentElement.classList.add('toolgate-theme');
  return Story();
};

const preview: Preview = {
  // autodocs: every component with stories gets a generated docs page.
  tags: ['autodocs'],
  decorators: [withTheme],
  // `<ConfirmToolDialog>` loads the dialog on first use: loaded before each story renders, a story
  // shows its dialog in its first paint, as it did when the dialog was part of the first load.
  loaders: [
    async () => {
      await preloadConfirmToolDialog();
      return {};
    },
  ],
  globalTypes: {
    theme: {
      description: 'Colour theme of the kit',
      toolbar: {
        title: 'Theme',
        icon: 'mirror',
        items: [
          { value: 'light', title: 'Light', icon: 'sun' },
          { value: 'dark', title: 'Dark', icon: 'moon' },
        ],
        dynamicTitle: true,
      },
    },
  },
  initialGlobals: { theme: 'light' },
  parameters: {
    controls: { expanded: true },
    // 'error': any axe violation fails the story's test (the addon's default only warns).
    a11y: { test: 'error' },
  },
};

export default preview;
