// @vitest-environment node
/**
 * Memory returns to its baseline after floods of refused frames: nothing a refusal records holds
 * on to a frame's bulk. Heap measured after a forced GC (what `node --expose-gc` gives).
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { TestClient, useTestServer } from './helpers';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

const { startServer } = useTestServer();

async function heapAfterGc(): Promise<number> {
  for (let i = 0; i < 4; i++) {
    gc();
    await new Promise((resolve) => setImmediate(resolve));
  }
  return process.memoryUsage().heapUsed;
}

const MB = 1024 * 1024;
/** One frame of almost a megabyte: an invoke the session may not make (refused, recorded). */
const refusedInvoke = (i: number) =>
  JSON.stringify({ type: 'room.request', id: `r${i}`, method: 'invokeTool', params: { toolName: 'add_note', arguments: { customerId: 'c_100', text: `${i}`.padEnd(MB - 200, 'x') } } });

describe('reference server: memory', () => {
  it('returns to its baseline heap after 100 refused 1 MB frames and 100 over the limit', async () => {
    const server = await startServer({ room: {} });
    const { client } = await TestClient.connect(server.url);
    // Warm up once, so the first use of each path is not taken for growth.
    client.sendText(refusedInvoke(-1));
    await client.waitFor((f) => f.id === 'r-1');
    const baseline = await heapAfterGc();

    for (let i = 0; i < 100; i++) {
      client.sendText(refusedInvoke(i));
      await client.waitFor((f) => f.id === `r${i}`, client.frames.length);
    }
    expect(client.frames.filter((f) => f.error?.code === 'FORBIDDEN')).toHaveLength(101);
    for (let i = 0; i < 100; i++) {
      const over = await TestClient.open(server.url);
      over.sendText('x'.repeat(MB + 1));
      expect((await over.closed).code).toBe(1009);
    }
    client.socket.terminate();
    const after = await heapAfterGc();
    const grownMb = (after - baseline) / MB;
    // 200 MB went through; what stays is the bounded records (16 KB of arguments at most each).
    expect(grownMb, `heap grew by ${grownMb.toFixed(1)} MB`).toBeLessThan(10);
    expect(server.effects.every((e) => e.arguments === undefined && e.argumentsOmitted !== undefined)).toBe(true);
  }, 60_000);
});
