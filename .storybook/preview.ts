import type { Decorator, Preview } from '@storybook/react-vite';
import '../src/styles.css';

type Theme = 'light' | 'dark';

// The kit's stylesheet keys its colours on `data-theme` of the root element.
const withTheme: Decorator = (Story, context) => {
  const theme: Theme = context.globals['theme'] === 'dark' ? 'dark' : 'light';
  document.documentElement.setAttribute('data-theme', theme);
  return Story();
};

const preview: Preview = {
  // autodocs: every component with stories gets a generated docs page.
  tags: ['autodocs'],
  decorators: [withTheme],
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
