// @vitest-environment node
/**
 * Limits, each refused with a reason: frame size (1009), depth and number of values (checked
 * before parsing and before canonical JSON: never a RangeError), a per-socket message budget, and
 * frames as heavy as the limits allow, answered while another session goes on over real sockets.
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { DEFAULT_LIMITS } from '../../server/limits';
import { Records } from '../../server/records';
import { Room, RoomError } from '../../server/room';
import { scanJsonText } from '../../server/shape';
import { createManualTimer } from '../../server/timer';
import { useTestServer } from './helpers';

const { startServer, connect } = useTestServer();

const MB = 1024 * 1024;
const root = fileURLToPath(new URL('../..', import.meta.url));
const nested = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;
const roomRequest = (id: string, method: string, argumentsText: string, toolName = 'send_invoice') =>
  `{"type":"room.request","id":"${id}","method":"${method}","params":{"toolName":"${toolName}","arguments":${argumentsText}}}`;

describe('reference server: frame size', () => {
  it('closes the socket with 1009 for a frame over 1 MB by default, and reads one under it', async () => {
    expect(DEFAULT_LIMITS.maxFrameBytes).toBe(MB);
    await startServer();
    const { client } = await connect();
    const under = roomRequest('under', 'confirmTool', JSON.stringify({ customerId: 'c_100', amount: 1, currency: 'EUR', memo: 'x'.repeat(MB - 200) }));
    expect(under.length).toBeLessThan(MB);
    client.sendText(under);
    expect((await client.waitFor((f) => f.id === 'under')).ok).toBe(true);
    client.sendText(roomRequest('over', 'confirmTool', JSON.stringify('x'.repeat(MB))));
    const closed = await client.closed;
    expect(closed.code).toBe(1009);
    expect(client.frames.some((f) => f.id === 'over')).toBe(false);
  });

  it('takes its frame limit from limits.maxFrameBytes', async () => {
    await startServer({ limits: { maxFrameBytes: 2000 } });
    const { client } = await connect();
    client.sendText(JSON.stringify({ type: 'turn.start', prompt: 'x'.repeat(2000) }));
    expect((await client.closed).code).toBe(1009);
  });

  it('answers the 9.6 MB nested confirmTool of the issue at once: 1009, no stall, nothing run', async () => {
    const server = await startServer();
    const { client, welcome } = await connect();
    client.sendText(roomRequest('huge', 'confirmTool', nested(4_800_000)));
    expect((await client.closed).code).toBe(1009);
    // The session waits for a resume like after any lost connection.
    expect(server.session(welcome.sessionId as string)!.closed).toBe(false);
  });
});

describe('reference server: depth and number of values', () => {
  it('refuses a 100,000-deep argument as invalid arguments before reading it: never a RangeError', async () => {
    const server = await startServer();
    const { client } = await connect();
    for (const method of ['confirmTool', 'invokeTool']) {
      client.sendText(roomRequest(`deep-${method}`, method, nested(100_000)));
      const refused = await client.waitFor((f) => f.id === `deep-${method}`);
      expect(refused).toMatchObject({ ok: false, error: { code: 'INVALID_ARGUMENTS' } });
      expect(refused.error.message).toBe('the message has more than 32 levels of nesting (arguments included); it was not read');
    }
    expect(server.ignored.map((r) => r.reason)).toEqual(['too-deep', 'too-deep']);
    expect((await client.room('confirmTool', { toolName: 'send_invoice', arguments: { customerId: 'c_100', amount: 1, currency: 'EUR' } })).ok).toBe(true);
  });

  it('refuses arguments with more than 10,000 values, and accepts 9,000', async () => {
    await startServer();
    const { client } = await connect();
    client.sendText(roomRequest('wide', 'confirmTool', JSON.stringify(Array.from({ length: 10_001 }, () => 0))));
    const refused = await client.waitFor((f) => f.id === 'wide');
    expect(refused).toMatchObject({ ok: false, error: { code: 'INVALID_ARGUMENTS', message: expect.stringMatching(/has more than 10000 values/) } });
    client.sendText(roomRequest('fine', 'confirmTool', JSON.stringify(Array.from({ length: 9_000 }, () => 0))));
    expect((await client.waitFor((f) => f.id === 'fine')).ok).toBe(true);
  });

  it('refuses any other message that nests too deep with TOO_COMPLEX, and keeps the session', async () => {
    await startServer({ limits: { maxDepth: 8 } });
    const { client } = await connect();
    client.sendText(`{"type":"tools.update","tools":[{"name":"t","parameters":${nested(20).replace('[]', '{}')}}]}`);
    const error = await client.waitFor((f) => f.type === 'error');
    expect(error).toMatchObject({ code: 'TOO_COMPLEX', message: 'the message has more than 8 levels of nesting (arguments included); it was not read' });
    expect((await client.runTurn('search')).ended.status).toBe('completed');
  });

  it('checks arguments handed to the room directly too, with an explicit stack (no recursion to overflow)', () => {
    const room = new Room(new Records(() => 0), () => 0);
    let deep: unknown = [];
    for (let i = 0; i < 200_000; i++) deep = [deep];
    const refusal = (() => {
      try {
        room.confirmTool('s1', 'send_invoice', deep);
      } catch (error) {
        return error;
      }
      return undefined;
    })();
    expect(refusal).toBeInstanceOf(RoomError);
    expect(refusal).toMatchObject({ code: 'INVALID_ARGUMENTS', message: 'the arguments have more than 32 levels of nesting' });
    const outcome = room.invokeTool('s1', 'send_invoice', deep);
    expect(outcome).toMatchObject({ ok: false, error: { code: 'INVALID_ARGUMENTS' } });
  });

  it('scans text for depth and values without parsing it, and names the top-level type and id it saw', () => {
    const limits = { maxDepth: 4, maxNodes: 50 };
    expect(scanJsonText('{"type":"a","x":[[[["deep"]]]]}', limits)).toMatchObject({
      problem: { kind: 'depth', message: 'more than 4 levels of nesting' },
      top: { type: 'a' },
    });
    expect(scanJsonText(`{"id":7,"type":"room.request","x":${JSON.stringify(Array.from({ length: 60 }, () => 1))}}`, limits)).toMatchObject({
      problem: { kind: 'nodes' },
      top: { id: 7, type: 'room.request' },
    });
    // Brackets inside strings (escaped quotes included) are text, not structure.
    expect(scanJsonText(JSON.stringify({ type: 'x', text: '[[[[[[\\"{{{{{' }), limits).problem).toBeUndefined();
  });
});

describe('reference server: message budget', () => {
  it('refuses messages beyond the socket’s budget unread, answering the first of the run with RATE_LIMITED', async () => {
    // Practically no refill: the burst is all this socket gets during the test.
    const server = await startServer({ limits: { messageBurst: 5, messagesPerSecond: 0.001 } });
    const { client } = await connect(); // the hello spends one
    for (let i = 0; i < 8; i++) client.send({ type: 'room.request', id: `r${i}`, method: 'describeTools', params: {} });
    // The server reads a socket's messages in order: once it answers the close, it has read all eight.
    await client.close();
    expect(client.frames.filter((f) => f.type === 'room.response').map((f) => f.id)).toEqual(['r0', 'r1', 'r2', 'r3']);
    const errors = client.frames.filter((f) => f.type === 'error');
    expect(errors).toEqual([expect.objectContaining({ code: 'RATE_LIMITED', message: expect.stringMatching(/more than 0.001 messages a second \(bursts of 5\)/) })]);
    expect(server.ignored.filter((r) => r.reason === 'rate-limited')).toHaveLength(1);
  });

  it('reads a socket’s messages again once its rate allows, on the server’s clock', async () => {
    const timer = createManualTimer();
    await startServer({ timer, limits: { messageBurst: 2, messagesPerSecond: 1 } });
    const { client } = await connect();
    expect((await client.room('describeTools')).ok).toBe(true);
    client.send({ type: 'room.request', id: 'refused', method: 'describeTools', params: {} });
    expect(await client.waitFor((f) => f.type === 'error')).toMatchObject({ code: 'RATE_LIMITED' });
    await timer.advance(1000);
    expect((await client.room('describeTools')).ok).toBe(true);
    expect(client.frames.some((f) => f.id === 'refused')).toBe(false);
  });

  it('has a default budget of 500 messages a second in bursts of 1000', () => {
    expect(DEFAULT_LIMITS).toMatchObject({ messagesPerSecond: 500, messageBurst: 1000 });
  });
});

describe('reference server: one session’s heavy frames and another session', () => {
  // How long the other session waits meanwhile is a figure of `npm run bench -- server` (against
  // the same requests with small arguments, in the same run): a timed test here would measure the
  // machine. What must hold on any machine is checked here.
  it('answers every frame as heavy as the limits allow, closes the 9.6 MB one with 1009, and answers another session all along', async () => {
    const server = await startServer();
    const other = await connect();
    const sender = spawn(process.execPath, [join(root, 'scripts', 'heavy-sender.mjs'), server.url, 'heavy'], { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] });
    let output = '';
    sender.stdout.on('data', (chunk: Buffer) => (output += String(chunk)));
    const exited = new Promise<number | null>((resolve) => sender.once('exit', resolve));
    let sending = true;
    void exited.then(() => (sending = false));
    let answered = 0;
    while (sending) {
      await other.client.roundTrip();
      answered++;
      // A round trip every ten milliseconds or so: well within the message budget.
      await new Promise((resolve) => setTimeout(resolve, 8));
    }
    expect(await exited).toBe(0);
    expect(output).toContain('last closed 1009');
    expect(answered).toBeGreaterThan(0);
    await other.client.roundTrip();
    expect(other.client.socket.readyState).toBe(1);
  }, 60_000);
});
