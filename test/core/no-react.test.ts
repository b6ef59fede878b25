// @vitest-environment node
import { describe, expect, it, vi } from 'vitest';
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

// Any attempt to load React (or a React-only package) while importing toolgate/core fails the test.
vi.mock('react', () => {
  throw new Error('toolgate/core imported react');
});
vi.mock('react-dom', () => {
  throw new Error('toolgate/core imported react-dom');
});
vi.mock('@radix-ui/react-dialog', () => {
  throw new Error('toolgate/core imported @radix-ui/react-dialog');
});

const coreDir = fileURLToPath(new URL('../../src/core/', import.meta.url));

describe('toolgate/core', () => {
  it('loads and works with React absent', async () => {
    const core = await import('toolgate/core');
    const store = core.createToolStreamStore();
    store.getState().dispatch({ type: 'tool.stream', phase: 'start', callId: 'c1', turnId: 't1', name: 'x' });
    expect(store.getState().order).toEqual(['c1']);
  });

  it('has no import of React, React DOM or Radix in any of its files', () => {
    const offenders = readdirSync(coreDir, { recursive: true })
      .map(String)
      .filter((f) => /\.tsx?$/.test(f))
      .filter((f) => /from\s+['"](react|react-dom|@radix-ui\/[^'"]*)(\/[^'"]*)?['"]/.test(readFileSync(coreDir + f, 'utf8')));
    expect(offenders).toEqual([]);
  });
});
