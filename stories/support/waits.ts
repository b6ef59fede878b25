/**
 * How long the stories' play functions wait on state, sized for a loaded 2-core machine (CI beside
 * other builds, `npm run test:stress` with busy CPU workers). A wait ends the moment its check holds,
 * so a long limit costs nothing when the page is quick; it only says how long a failing check is
 * retried before the test reports what the page showed. Not a story file itself.
 */

/**
 * The default limit of every `waitFor` and `findBy*` (set in .storybook/preview.ts). The story
 * projects' test timeout in vitest.config.ts is larger, so a wait that fails reports the page's
 * state instead of a bare timeout.
 */
export const STATE_WAIT_MS = 60_000;
