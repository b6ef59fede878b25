// @vitest-environment node
/**
 * The server and the kit each have their own canonical JSON, on purpose: here they must agree,
 * and every event the server sends must reduce in the kit's store as docs/protocol.md says.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createToolStreamStore, type JsonValue } from 'toolgate/core';
import { canonicalJson, fingerprintJson } from 'toolgate/json';
import { canonicalize, fingerprintOf } from '../../server/jcs';
import { autoAnswer, useTestServer, type Frame } from './helpers';

const { startServer, connect } = useTestServer();

function outcome(f: () => string): string {
  try {
    return `ok:${f()}`;
  } catch {
    return 'throws';
  }
}

describe('reference server and kit agree', () => {
  it('writes the same canonical JSON as the kit for generated JSON values', () => {
    fc.assert(
      fc.property(fc.jsonValue({ stringUnit: 'grapheme' }), (value) => {
        expect(canonicalize(value)).toBe(canonicalJson(value as JsonValue));
      }),
      { seed: 8785, numRuns: 400 },
    );
  });

  it('accepts and refuses the same strings as the kit, lone surrogates included', () => {
    fc.assert(
      fc.property(fc.dictionary(fc.string({ unit: 'binary' }), fc.string({ unit: 'binary' }), { maxKeys: 3 }), (value) => {
        expect(outcome(() => canonicalize(value))).toBe(outcome(() => canonicalJson(value)));
      }),
      { seed: 7493, numRuns: 400 },
    );
  });

  it('computes the same fingerprints as the kit', async () => {
    await fc.assert(
      fc.asyncProperty(fc.jsonValue(), async (value) => {
        expect((await fingerprintJson(value as JsonValue)).hex).toBe(fingerprintOf(value));
      }),
      { seed: 256, numRuns: 100 },
    );
  });

  const clean = ['search', 'no-stream', 'stop', 'long', 'parallel', 'edit', 'deploy', 'write', 'email', 'invalid', 'unknown-tool', 'tour'];
  it.each(clean)('streams the %s script in events the kit reduces without an error', async (prompt) => {
    const server = await startServer();
    const { client } = await connect();
    autoAnswer(client);
    const errors: string[] = [];
    const store = createToolStreamStore({ onError: (reason) => errors.push(reason) });
    // Approve with the kit's own fingerprint: the server must accept it.
    client.socket.on('message', (data) => {
      const frame = JSON.parse(String(data)) as Frame;
      if (typeof frame.seq === 'number') store.getState().dispatch(frame);
      if (frame.type === 'tool.approval-request') {
        void fingerprintJson(frame.arguments as JsonValue).then((fp) =>
          client.send({ type: 'tool.approval', requestId: frame.requestId, approvalToken: frame.approvalToken, approved: true, fingerprint: fp.hex }),
        );
      }
    });
    const { ended } = await client.runTurn(prompt, { params: { size: 2000 } });
    await client.roundTrip();
    expect(errors).toEqual([]);
    expect(client.frames.some((f) => f.code === 'FINGERPRINT_MISMATCH')).toBe(false);
    const state = store.getState();
    expect(state.order.length).toBeGreaterThan(0);
    for (const callId of state.order) {
      const call = state.calls[callId]!;
      expect(call.status).toBe(ended.status === 'failed' ? 'failed' : 'settled');
      expect(call.source).toBe('stream');
    }
    if (prompt === 'deploy') expect(server.effects.some((e) => e.toolName === 'deploy_service' && e.outcome === 'accepted')).toBe(true);
  });

  it('reports the malformed frames of the malformed script through onError, and still settles the call', async () => {
    await startServer();
    const { client } = await connect();
    const errors: string[] = [];
    const store = createToolStreamStore({ onError: (reason) => errors.push(reason) });
    client.socket.on('message', (data) => {
      let value: unknown;
      try {
        value = JSON.parse(String(data));
      } catch {
        return; // a frame that is not JSON never reaches the store; the adapter reports it
      }
      const frame = value as Frame;
      if (Array.isArray(value) || typeof frame.seq === 'number' || frame.type === undefined) store.getState().dispatch(value);
    });
    await client.runTurn('malformed');
    await client.roundTrip();
    // An unknown phase, a missing callId, a frame that is not an object and a repeated seq are
    // reported; an event of a type nobody knows is ignored silently (docs/protocol.md, "Rules of the stream").
    expect(errors).toEqual([
      expect.stringContaining("unknown phase 'rewind'"),
      expect.stringContaining('callId must be a non-empty string'),
      expect.stringContaining('an event must be an object, got an array'),
      expect.stringMatching(/arguments-delta for call '.+' repeats seq \d+/),
    ]);
    const state = store.getState();
    expect(state.order).toHaveLength(1);
    expect(state.calls[state.order[0]!]!.status).toBe('settled');
  });

  it('shows each call once to the kit in preview-only mode, and clears them on closed', async () => {
    await startServer();
    const { client } = await connect({ capabilities: [] });
    autoAnswer(client);
    const errors: string[] = [];
    const store = createToolStreamStore({ onError: (reason) => errors.push(reason) });
    client.socket.on('message', (data) => {
      const frame = JSON.parse(String(data)) as Frame;
      if (typeof frame.seq === 'number') store.getState().dispatch(frame);
    });
    await client.runTurn('edit');
    await client.roundTrip();
    expect(errors).toEqual([]);
    expect(store.getState().order).toHaveLength(3);
    expect(Object.values(store.getState().calls).map((c) => c.source)).toEqual(['preview', 'preview', 'preview']);
    client.send({ type: 'session.close' });
    await client.closed;
    expect(store.getState()).toMatchObject({ closed: true, order: [] });
  });
});
