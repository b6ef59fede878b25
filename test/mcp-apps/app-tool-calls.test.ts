/**
 * An MCP App's tool calls go through the approvals (docs/protocol.md, "MCP Apps"): nothing reaches
 * the application's `callTool` before a person approves, what reaches it is the approved snapshot,
 * once; a denial or a withdrawal runs nothing and tells the app why; and the tool's annotations set
 * its risk only for a server the application trusts.
 */
import { describe, expect, it, vi } from 'vitest';
import { createConfirmationController } from 'toolgate/core';
import { approveAppToolCall, type McpAppServer, type McpCallToolResult } from 'toolgate/mcp-apps';
import { shown } from '../core/confirmation-helpers';

const tools = [{ name: 'delete_repo', description: 'Delete a repository', annotations: { readOnlyHint: false, destructiveHint: false } }];
const ok: McpCallToolResult = { content: [{ type: 'text', text: 'deleted' }] };

function setup(server: McpAppServer = { name: 'git', tools }) {
  const approvals = createConfirmationController();
  const callTool = vi.fn(async () => ok);
  const life = new AbortController();
  const args = { repo: 'acme/site' };
  const result = approveAppToolCall(approvals, server, { name: 'delete_repo', arguments: args }, callTool, life.signal);
  return { approvals, callTool, life, args, result };
}

describe('approveAppToolCall', () => {
  it('forwards nothing until a person approves, then the approved snapshot, once', async () => {
    const { approvals, callTool, args, result } = setup();
    const view = await shown(approvals);
    expect(view).toMatchObject({ toolName: 'delete_repo', arguments: { repo: 'acme/site' } });
    expect(callTool).not.toHaveBeenCalled();
    // The caller's object changes after the request: what runs is what the person saw.
    args.repo = 'acme/everything';
    expect(approvals.approve()).toBe(true);
    expect(approvals.approve()).toBe(false);
    expect(await result).toBe(ok);
    expect(callTool).toHaveBeenCalledTimes(1);
    const [call, context] = callTool.mock.calls[0] as unknown as [{ name: string; arguments: unknown }, { signal: AbortSignal }];
    expect(call).toEqual({ name: 'delete_repo', arguments: { repo: 'acme/site' } });
    expect(Object.isFrozen(call.arguments)).toBe(true);
    expect(context.signal).toBeInstanceOf(AbortSignal);
  });

  it('runs nothing on a denial and tells the app, with the person’s reason', async () => {
    const { approvals, callTool, result } = setup();
    await shown(approvals);
    approvals.deny('not this one');
    expect(await result).toEqual({ content: [{ type: 'text', text: 'The person denied delete_repo: not this one.' }], isError: true });
    expect(callTool).not.toHaveBeenCalled();
  });

  it('withdraws the request when the app goes away, and runs nothing', async () => {
    const { approvals, callTool, life, result } = setup();
    await shown(approvals);
    life.abort(new Error('the app was closed'));
    expect(await result).toEqual({ content: [{ type: 'text', text: 'The request to run delete_repo was withdrawn: the app was closed.' }], isError: true });
    expect(approvals.getState().current).toBeNull();
    expect(approvals.approve()).toBe(false);
    expect(callTool).not.toHaveBeenCalled();
  });

  it('ignores the annotations of a server the application does not trust', async () => {
    const { approvals } = setup({ name: 'git', tools });
    const view = await shown(approvals);
    expect(view.descriptor).toMatchObject({ effect: 'write', risk: 'high', requiresConfirmation: true, undeclared: ['effect', 'risk'] });
    approvals.deny();
  });

  it('takes the risk from the annotations of a trusted server, still confirmed by a person', async () => {
    const { approvals, callTool } = setup({ name: 'git', trusted: true, tools });
    const view = await shown(approvals);
    expect(view.descriptor).toMatchObject({ effect: 'write', risk: 'medium', requiresConfirmation: true });
    expect(view.descriptor.undeclared ?? []).toEqual([]);
    expect(view.definition).not.toBeNull();
    expect(callTool).not.toHaveBeenCalled();
    approvals.deny();
  });

  it('asks about a tool the server did not list as a write of undeclared risk, even when trusted', async () => {
    const approvals = createConfirmationController();
    const callTool = vi.fn(async () => ok);
    const result = approveAppToolCall(approvals, { name: 'git', trusted: true, tools }, { name: 'force_push' }, callTool, new AbortController().signal);
    const view = await shown(approvals);
    expect(view).toMatchObject({ toolName: 'force_push', arguments: {}, descriptor: { effect: 'write', risk: 'high', undeclared: ['effect', 'risk'] } });
    approvals.deny();
    await result;
    expect(callTool).not.toHaveBeenCalled();
  });
});
