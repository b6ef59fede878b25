/**
 * A tool's definition fingerprint (canonical JSON of its name, description, parameters and
 * descriptor), and standing grants bound to it: a grant stops answering once its tool's
 * definition changes, and the request says which parts changed.
 */
import { createHash } from 'node:crypto';
import { describe, expect, it, vi } from 'vitest';
import { createConfirmationController, createAppToolHost, type ClientMessage, type ConfirmationOutcome, type ToolDescriptor } from 'toolgate/core';
import { canonicalJson } from 'toolgate/json';
import { changedDefinitionParts, fingerprintToolDefinition, type ToolDefinition } from 'toolgate/server';
import { connectApprovalGate, createAppToolApprovalHandler } from 'toolgate/client';
import { createToolGrants } from 'toolgate/policy';
import { createScriptedSession } from 'toolgate/testing';
import { settleAll, shown, until } from './confirmation-helpers';

const sha256 = (text: string): string => createHash('sha256').update(text, 'utf8').digest('hex');
const medium: ToolDescriptor = { effect: 'write', risk: 'medium', requiresConfirmation: true };
const v1: ToolDefinition = {
  name: 'delete_file',
  description: 'Deletes one file in the workspace',
  parameters: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] },
  descriptor: medium,
};

describe('fingerprintToolDefinition', () => {
  it('is SHA-256 of the canonical JSON of name, description, parameters and descriptor, whatever the key order', async () => {
    const fp = await fingerprintToolDefinition(v1);
    expect(fp.hex).toBe(sha256(canonicalJson({ name: v1.name, description: v1.description!, parameters: v1.parameters as never, descriptor: medium as never })));
    const reordered = await fingerprintToolDefinition({
      descriptor: { requiresConfirmation: true, risk: 'medium', effect: 'write' },
      parameters: { required: ['path'], properties: { path: { type: 'string' } }, type: 'object' },
      description: v1.description,
      name: 'delete_file',
    });
    expect(reordered.hex).toBe(fp.hex);
    expect(fp.parts.description).toBe(sha256(JSON.stringify(v1.description)));
    // A part not given is null; a descriptor field set to undefined is not a part of it.
    expect((await fingerprintToolDefinition({ name: 'x' })).hex).toBe(sha256('{"description":null,"descriptor":null,"name":"x","parameters":null}'));
    expect((await fingerprintToolDefinition({ name: 'x', descriptor: { risk: 'low', effect: undefined } })).hex).toBe(
      (await fingerprintToolDefinition({ name: 'x', descriptor: { risk: 'low' } })).hex,
    );
  });

  it('names each part that changed, and nothing when none did', async () => {
    const before = await fingerprintToolDefinition(v1);
    expect(changedDefinitionParts(before, await fingerprintToolDefinition({ ...v1 }))).toEqual([]);
    expect(changedDefinitionParts(before, await fingerprintToolDefinition({ ...v1, description: 'Tidies the workspace' }))).toEqual(['description']);
    expect(changedDefinitionParts(before, await fingerprintToolDefinition({ ...v1, parameters: { type: 'object' }, descriptor: { ...medium, risk: 'low' } }))).toEqual([
      'parameters',
      'descriptor',
    ]);
    expect(changedDefinitionParts(before, null)).toEqual(['name', 'description', 'parameters', 'descriptor']);
  });

  it('refuses a definition without a name or with parts that are not JSON, with a clear error', async () => {
    await expect(fingerprintToolDefinition({ name: '' })).rejects.toThrow(/needs a name/);
    await expect(fingerprintToolDefinition({ name: 'x', parameters: { at: new Date() } })).rejects.toThrow(/definition of x cannot be fingerprinted/);
    await expect(fingerprintToolDefinition({ name: 'x', description: 5 as unknown as string })).rejects.toThrow(/description that is not a string/);
  });
});

describe('standing grants bound to a definition', () => {
  function setup() {
    const confirmations = createConfirmationController();
    const ran: string[] = [];
    const ask = (definition: ToolDefinition, args: Record<string, string>): Promise<ConfirmationOutcome> =>
      confirmations.request({ toolName: definition.name, arguments: args, descriptor: medium, definition, onApprove: () => void ran.push(args.path!) });
    return { confirmations, ran, ask };
  }

  it('a grant stops answering when its tool\'s definition changes', async () => {
    const { confirmations, ran, ask } = setup();
    const first = ask(v1, { path: 'a' });
    await shown(confirmations);
    expect(confirmations.allowForSession()).toBe(true);
    expect((await first).status).toBe('done');
    const grant = confirmations.grants.find('delete_file')!;
    expect(grant.definition?.hex).toBe((await fingerprintToolDefinition(v1)).hex);
    // The same definition: the grant answers.
    expect((await ask({ ...v1 }, { path: 'b' })).status).toBe('done');
    expect(ran).toEqual(['a', 'b']);
    // Its description and schema changed: the grant does not answer; a person is asked, told what changed.
    const changed = ask({ ...v1, description: 'Deletes every file', parameters: { type: 'object' } }, { path: 'c' });
    const view = await shown(confirmations);
    expect(view.decidedBy).toBeNull();
    expect(view.definitionChanged).toEqual({ grant, parts: ['description', 'parameters'] });
    expect(ran).toEqual(['a', 'b']);
    confirmations.deny();
    expect((await changed).status).toBe('denied');
  });

  it('a deny grant stops answering too, and a new grant binds to the new definition', async () => {
    const { confirmations, ask } = setup();
    const fp = await fingerprintToolDefinition(v1);
    confirmations.grants.deny('delete_file', fp);
    expect((await ask(v1, { path: 'a' })).status).toBe('denied');
    const v2 = { ...v1, descriptor: { ...medium, risk: 'low' as const } };
    const asked = ask(v2, { path: 'b' });
    expect((await shown(confirmations)).definitionChanged?.parts).toEqual(['descriptor']);
    expect(confirmations.allowForSession()).toBe(true);
    expect((await asked).status).toBe('done');
    expect(confirmations.grants.find('delete_file')?.definition?.hex).toBe((await fingerprintToolDefinition(v2)).hex);
  });

  it("an app tool's grant stops answering once the tool is registered again with another description", async () => {
    const approvals = createConfirmationController();
    const host = createAppToolHost({ requestApproval: createAppToolApprovalHandler(approvals, { describe: () => medium }) });
    const client = { host, approvals };
    const run = vi.fn(() => 'ok');
    let unregister = client.host.register({ name: 'delete_file', description: 'Deletes one file', confirm: true, run });
    const first = client.host.call({ callId: 'c1', turnId: 't1', epoch: client.host.epoch, name: 'delete_file', arguments: { path: 'a' } });
    await shown(client.approvals);
    client.approvals.allowForSession();
    expect((await first).ok).toBe(true);
    expect((await client.host.call({ callId: 'c2', turnId: 't1', epoch: client.host.epoch, name: 'delete_file', arguments: { path: 'b' } })).ok).toBe(true);
    expect(run).toHaveBeenCalledTimes(2);
    unregister();
    unregister = client.host.register({ name: 'delete_file', description: 'Deletes the whole workspace', confirm: true, run });
    const third = client.host.call({ callId: 'c3', turnId: 't1', epoch: client.host.epoch, name: 'delete_file', arguments: { path: 'c' } });
    const view = await shown(client.approvals);
    expect(view.definitionChanged?.parts).toEqual(['description']);
    expect(run).toHaveBeenCalledTimes(2);
    client.approvals.deny();
    expect(await third).toMatchObject({ ok: false, code: 'REJECTED' });
    unregister();
    host.close();
  });

  it("a server tool's grant stops answering when the request declares another definition, and the answers carry its fingerprint", async () => {
    const session = createScriptedSession();
    const confirmations = createConfirmationController();
    const stop = connectApprovalGate(session, confirmations);
    const request = (requestId: string, more: Record<string, unknown> = {}) =>
      session.emit({ type: 'tool.approval-request', requestId, callId: `c-${requestId}`, name: 'web_search', arguments: { q: 'x' }, risk: 'low', effect: 'read', description: 'Searches the web', ...more });
    request('r1');
    await shown(confirmations);
    confirmations.allowForSession();
    request('r2');
    await settleAll();
    const answers = () => session.sent.filter((m: ClientMessage) => m.type === 'tool.approval');
    expect(answers()).toEqual([
      expect.objectContaining({ requestId: 'r1', approved: true }),
      expect.objectContaining({ requestId: 'r2', approved: true, automatic: true }),
    ]);
    const definitionFingerprint = (answers()[0] as { definitionFingerprint?: string }).definitionFingerprint;
    expect(definitionFingerprint).toBe((await fingerprintToolDefinition({ name: 'web_search', description: 'Searches the web', descriptor: { effect: 'read', risk: 'low', requiresConfirmation: true } })).hex);
    request('r3', { description: 'Searches the web and posts the results' });
    const view = await shown(confirmations);
    expect(view.definitionChanged?.parts).toEqual(['description']);
    expect(answers()).toHaveLength(2);
    confirmations.deny();
    await until(confirmations, (s) => s.current === null);
    stop();
  });

  it('keeps a grant\'s definition through save and restore, and refuses a saved definition that is not one', async () => {
    const fp = await fingerprintToolDefinition(v1);
    const grants = createToolGrants();
    grants.allow('delete_file', fp);
    const saved = JSON.parse(JSON.stringify(grants.save()));
    const restored = createToolGrants({ saved });
    expect(restored.find('delete_file')?.definition).toEqual(fp);
    const onError = vi.fn();
    const broken = createToolGrants({ onError, saved: { version: 2, rules: [{ ...saved.rules[0], definitionParts: { name: 'nope' } }] } });
    expect(broken.find('delete_file')).toBeUndefined();
    expect(onError).toHaveBeenCalledWith(expect.stringMatching(/definition that is not a definition fingerprint/), expect.anything(), 'invalid-grant');
    // A grant saved before grants were kept as rules (version 1) is read the same way.
    const old = createToolGrants({ onError, saved: { version: 1, grants: [{ id: 'g', toolName: 'delete_file', decision: 'allow', grantedAt: 1, definition: { hex: 'nope' } }] } });
    expect(old.find('delete_file')).toBeUndefined();
    expect(createToolGrants({ saved: { version: 1, grants: [{ id: 'g', toolName: 'delete_file', decision: 'allow', grantedAt: 1, definition: fp }] } }).find('delete_file')?.definition).toEqual(fp);
    expect(() => grants.allow('x', { hex: 'nope' } as never)).toThrow(TypeError);
  });
});
