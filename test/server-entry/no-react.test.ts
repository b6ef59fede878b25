// @vitest-environment node
import { describe, expect, it, vi } from 'vitest';
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

// toolgate/server runs in any server runtime: any attempt to load React, or a Node-only module,
// while importing it fails the test.
vi.mock('react', () => {
  throw new Error('toolgate/server imported react');
});
vi.mock('react-dom', () => {
  throw new Error('toolgate/server imported react-dom');
});
vi.mock('zustand/vanilla', () => {
  throw new Error('toolgate/server imported zustand');
});

const serverDir = fileURLToPath(new URL('../../src/server/', import.meta.url));

describe('toolgate/server', () => {
  it('loads and signs and verifies with React absent', async () => {
    const { createApprovalSigner } = await import('toolgate/server');
    const signer = createApprovalSigner({ secret: 'a server secret that is 32 bytes long at least' });
    const decision = { toolName: 't', argumentsFingerprint: 'f'.repeat(64) };
    const token = await signer.sign({ sessionId: 's', callId: 'c', editable: false, ...decision });
    expect((await signer.verify(token, decision)).ok).toBe(true);
  });

  it('imports nothing but its own modules, canonical JSON and definition fingerprints: no React, no node: modules, no Buffer', () => {
    // The kit's modules it shares, so that a page and a server compute the same fingerprints.
    const shared = new Set(['../core/json/canonical-json', '../core/approval/tool-definition']);
    const found: string[] = [];
    for (const file of readdirSync(serverDir).filter((f) => f.endsWith('.ts'))) {
      // Code only: the JSDoc examples may show a Node server reading its secret from process.env.
      const text = readFileSync(serverDir + file, 'utf8').replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');
      for (const [, spec] of text.matchAll(/from\s+['"]([^'"]+)['"]/g)) if (!spec!.startsWith('./') && !shared.has(spec!)) found.push(`${file}: ${spec}`);
      if (/\bBuffer\b|\bprocess\./.test(text)) found.push(`${file}: uses a Node global`);
    }
    expect(found).toEqual([]);
  });
});
