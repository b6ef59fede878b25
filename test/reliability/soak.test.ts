// @vitest-environment node
/**
 * The soak's short version (issue 8, item 5): 300 and more calls through the reference server, the
 * client, the store, the app-tool host and the approval gate; then `closed`, after which nothing
 * the session showed is still reachable. The full soak (`npm run soak`: 10,000 calls, heap
 * measured against a baseline with a forced GC) runs outside `npm test`.
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterEach, describe, expect, it } from 'vitest';
import { startReferenceServer, type ReferenceServer } from '../../server/server';
import { CALLS_PER_TURN, SOAK_SCRIPT, checkAfterClose, checkBeforeClose, closePage, openSoakPage, runTurns, type SoakPage } from './soak';

// A forced GC inside the test worker (what `node --expose-gc` gives the full soak).
setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

let server: ReferenceServer | undefined;
let page: SoakPage | undefined;
afterEach(async () => {
  page?.host.close();
  page?.session.close();
  page = undefined;
  await server?.close();
  server = undefined;
});

async function collect(refs: WeakRef<object>[]): Promise<number> {
  for (let i = 0; i < 5; i++) {
    gc();
    await new Promise((resolve) => setImmediate(resolve));
  }
  return refs.filter((ref) => ref.deref() !== undefined).length;
}

/** What the session shows now (the state, its calls, the host's state), watched without being held. */
function watch(page: SoakPage): WeakRef<object>[] {
  const state = page.store.getState();
  const refs: WeakRef<object>[] = [new WeakRef(state), new WeakRef(state.calls), new WeakRef(page.host.getState())];
  for (const id of state.order.filter((_id, i) => i % 10 === 0)) refs.push(new WeakRef(state.calls[id] as object));
  return refs;
}

describe('soak, short', () => {
  it('runs 300+ calls (an approval, an interrupt), shows each once and ends each, and keeps nothing of them after closed', async () => {
    server = await startReferenceServer({ port: 0, speed: Infinity, scripts: [SOAK_SCRIPT] });
    page = openSoakPage(server.url);
    await page.session.ready;
    // Turns 0, 1 and 3 run the soak script, turn 2 a deploy through the gate, turn 4 is interrupted.
    const turns = await runTurns(page, 5, 'short', { interruptEvery: 5, deployEvery: 4 });
    expect(turns).toMatchObject({ interrupted: 1, completed: 4, deploys: 1 });
    expect(page.counts.approvals).toBe(1);
    expect(page.counts.calls).toBeGreaterThan(3 * CALLS_PER_TURN);
    expect(checkBeforeClose(page)).toEqual([]);

    const refs = watch(page);
    const watched = refs.length;

    await closePage(page);
    expect(checkAfterClose(page)).toEqual([]);
    expect(await collect(refs)).toBe(0);
    expect(watched).toBeGreaterThan(20);
  }, 60_000);
});
