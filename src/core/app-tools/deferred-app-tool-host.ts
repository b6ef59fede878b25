/**
 * The app-tool host the client makes: the same host as `createAppToolHost`, whose part that runs
 * calls (./host-runtime) is loaded by `import()` when the first call arrives, so a page that
 * never runs an app tool never loads it (docs/architecture.md, "What loads when"). Registering,
 * the declarations `hello` carries, the state and an interrupt with no call open work at once;
 * calls, aborts and a close that arrive while it loads wait in arrival order and are handed to it
 * in that order, each answered once.
 */

import { assembleAppToolHost } from './host-shell';
import type { AppToolHost, AppToolHostOptions } from './types';

const loadRuntime = () => import('./host-runtime').then((m) => m.runAppToolHost);

/**
 * Create an app-tool host that loads the part that runs calls on the first call.
 *
 * @example
 * const host = createDeferredAppToolHost({ timeoutMs: 10_000 });
 * host.register(setTitleTool); // declared at once
 * await host.call({ callId: 'c1', turnId: 't1', epoch: 0, name: 'set_title', arguments: { title: 'Hi' } });
 */
export function createDeferredAppToolHost(options: AppToolHostOptions = {}): AppToolHost {
  return assembleAppToolHost(options, loadRuntime, false);
}
