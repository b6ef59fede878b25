/**
 * Standing grants as data: one per tool, listed oldest first, revoked at once, saved as plain
 * JSON and restored with every entry checked (a bad one refused and named, never half taken).
 */
import { describe, expect, it, vi } from 'vitest';
import { allowGrantRefusal, createToolGrants, type ToolGrantsSnapshot } from 'toolgate/policy';
import { descriptorFromMcpTool } from 'toolgate/adapters';

describe('standing grants', () => {
  it('keeps one grant per tool: a new decision replaces the one before', () => {
    let now = 1_000;
    const grants = createToolGrants({ now: () => now });
    const allow = grants.allow('search_docs');
    now = 2_000;
    grants.allow('lookup_order');
    const deny = grants.deny('search_docs');
    expect(grants.getState().grants.map((g) => [g.toolName, g.decision])).toEqual([
      ['lookup_order', 'allow'],
      ['search_docs', 'deny'],
    ]);
    expect(deny.id).not.toBe(allow.id);
    expect(grants.find('search_docs')).toEqual({ id: deny.id, toolName: 'search_docs', decision: 'deny', grantedAt: 2_000 });
  });

  it('revokes a grant at once, and says whether there was one', () => {
    const grants = createToolGrants();
    const listener = vi.fn();
    grants.subscribe(listener);
    const grant = grants.allow('search_docs');
    expect(grants.revoke(grant.id)).toBe(true);
    expect(grants.find('search_docs')).toBeUndefined();
    expect(grants.revoke(grant.id)).toBe(false);
    expect(listener).toHaveBeenCalledTimes(2);
    grants.deny('a');
    grants.deny('b');
    expect(grants.revokeAll()).toBe(2);
    expect(grants.getState().grants).toEqual([]);
  });

  it('saves plain data that survives JSON and restores it into a new store', () => {
    const grants = createToolGrants({ now: () => 5 });
    grants.allow('search_docs');
    grants.deny('transfer');
    const saved = JSON.parse(JSON.stringify(grants.save())) as ToolGrantsSnapshot;
    const restored = createToolGrants({ saved });
    expect(restored.getState().grants).toEqual(grants.getState().grants);
    // Ids go on from the restored ones: a new grant never takes an id a restored one holds.
    const next = restored.allow('lookup_order');
    expect(restored.getState().grants.filter((g) => g.id === next.id)).toHaveLength(1);
  });

  it('refuses saved entries that are not well formed, names each, and keeps the good ones', () => {
    const onError = vi.fn();
    const grants = createToolGrants({ onError });
    const result = grants.restore({
      version: 1,
      grants: [
        { id: 'g1', toolName: 'search_docs', decision: 'allow', grantedAt: 1 },
        { id: 'g2', toolName: '', decision: 'allow', grantedAt: 1 },
        { id: 'g3', toolName: 'x', decision: 'always', grantedAt: 1 },
        { id: 'g1', toolName: 'y', decision: 'deny', grantedAt: 1 },
        { id: 'g4', toolName: 'z', decision: 'deny', grantedAt: Number.NaN },
        'nonsense',
      ],
    });
    expect(result.restored).toBe(1);
    expect(result.refused).toHaveLength(5);
    expect(onError).toHaveBeenCalledTimes(5);
    expect(onError.mock.calls[0]![2]).toBe('invalid-grant');
    expect(grants.getState().grants.map((g) => g.id)).toEqual(['g1']);
    expect(grants.restore(null)).toMatchObject({ restored: 0 });
    expect(grants.getState().grants).toEqual([]);
  });

  it('restores a saved grant for a tool named __proto__ as data, never as a prototype', () => {
    const grants = createToolGrants();
    grants.restore(JSON.parse('{"version":1,"grants":[{"id":"g","toolName":"__proto__","decision":"allow","grantedAt":1}]}'));
    expect(grants.find('__proto__')?.decision).toBe('allow');
    expect(({} as Record<string, unknown>).decision).toBeUndefined();
  });

  it('never lets a high-risk tool, one whose risk is not declared, or one confirmed every time take an allow grant', () => {
    expect(allowGrantRefusal({ effect: 'write', risk: 'high', requiresConfirmation: true })).toBe('high-risk');
    expect(allowGrantRefusal({ effect: 'write', risk: 'low', requiresConfirmation: true, confirmEveryTime: true })).toBe('every-time');
    expect(allowGrantRefusal(descriptorFromMcpTool({ name: 'mystery' }))).toBe('risk-not-declared');
    expect(allowGrantRefusal({ effect: 'read', risk: 'low', requiresConfirmation: true })).toBeUndefined();
  });
});
