/**
 * Descriptors from MCP tool annotations, only for a server the application trusts; what a tool does
 * not declare stays undeclared (shown as "risk not declared") and still needs confirmation.
 */
import { describe, expect, it } from 'vitest';
import { isUndeclared } from 'toolgate/core';
import { descriptorFromMcpTool } from 'toolgate/adapters';

describe('descriptors from MCP annotations', () => {
  it('maps readOnlyHint to a read and destructiveHint to a high risk, for a trusted server', () => {
    expect(descriptorFromMcpTool({ name: 'list_files', annotations: { readOnlyHint: true } }, { trusted: true })).toMatchObject({
      effect: 'read',
      risk: 'low',
      requiresConfirmation: true,
    });
    const drop = descriptorFromMcpTool({ name: 'drop_table', annotations: { readOnlyHint: false, destructiveHint: true } }, { trusted: true });
    expect(drop).toMatchObject({ effect: 'write', risk: 'high' });
    expect(drop.undeclared).toBeUndefined();
    expect(descriptorFromMcpTool({ name: 'append', annotations: { readOnlyHint: false, destructiveHint: false } }, { trusted: true }).risk).toBe('medium');
  });

  it('maps idempotentHint to a retry that is safe, and openWorldHint to a tool that reaches outside', () => {
    const put = descriptorFromMcpTool({ name: 'put_object', annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false } }, { trusted: true });
    expect(put).toMatchObject({ retrySafe: true, openWorld: false });
  });

  it('ignores the annotations of a server the application does not trust', () => {
    const untrusted = descriptorFromMcpTool({ name: 'list_files', description: 'Lists files', annotations: { readOnlyHint: true } });
    expect(untrusted).toMatchObject({ effect: 'write', risk: 'high', requiresConfirmation: true, description: 'Lists files' });
    expect(isUndeclared(untrusted, 'effect')).toBe(true);
    expect(isUndeclared(untrusted, 'risk')).toBe(true);
  });

  it('leaves what a trusted tool does not declare undeclared, and still asks for confirmation', () => {
    const writes = descriptorFromMcpTool({ name: 'send', annotations: { readOnlyHint: false } }, { trusted: true });
    expect(isUndeclared(writes, 'effect')).toBe(false);
    expect(isUndeclared(writes, 'risk')).toBe(true);
    expect(writes.requiresConfirmation).toBe(true);
    const silent = descriptorFromMcpTool({ name: 'thing', annotations: {} }, { trusted: true });
    expect(silent.undeclared).toEqual(['effect', 'risk']);
  });

  it('reads only booleans: a hint of another type declares nothing', () => {
    const odd = descriptorFromMcpTool({ name: 'odd', annotations: { readOnlyHint: 'yes' as never, destructiveHint: 1 as never } }, { trusted: true });
    expect(odd.undeclared).toEqual(['effect', 'risk']);
  });
});
