/**
 * The message policy of MCP Apps (docs/protocol.md, "MCP Apps"): what an app in a frame may post
 * to the page. Each refusal carries a code, a reason, the JSON-RPC error code the app is answered
 * with, and the request's id where there is one; nothing it is given throws.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  APP_METHODS,
  DEFAULT_APP_CSP,
  DEFAULT_MAX_MESSAGE_BYTES,
  checkAppLink,
  refusalResponse,
  screenAppMessage,
  withContentSecurityPolicy,
  type AppMessagePolicy,
} from 'toolgate/mcp-apps';

const policy: AppMessagePolicy = { methods: new Set(APP_METHODS), maxMessageBytes: DEFAULT_MAX_MESSAGE_BYTES, linkOrigins: ['https://docs.example.com'] };

describe('screenAppMessage', () => {
  it('lets through a request for a method the page offers, unchanged', () => {
    const message = { jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'forecast', arguments: { city: 'Lyon' } } };
    expect(screenAppMessage(message, policy, { fromApp: true })).toEqual({ ok: true, message });
  });

  it('lets through notifications and the app’s responses to the page’s own requests', () => {
    expect(screenAppMessage({ jsonrpc: '2.0', method: 'ui/notifications/size-changed', params: { height: 300 } }, policy).ok).toBe(true);
    expect(screenAppMessage({ jsonrpc: '2.0', id: 'teardown-1', result: {} }, policy).ok).toBe(true);
    expect(screenAppMessage({ jsonrpc: '2.0', id: 3, error: { code: -1, message: 'no' } }, policy).ok).toBe(true);
  });

  it('refuses a method the page does not offer with -32601, naming it, and keeps the id to answer', () => {
    const verdict = screenAppMessage({ jsonrpc: '2.0', id: 'x1', method: 'sampling/createMessage', params: {} }, policy);
    expect(verdict).toEqual({
      ok: false,
      refusal: { code: 'method-not-allowed', reason: 'the app asked for "sampling/createMessage", which this page does not offer', errorCode: -32601, id: 'x1', method: 'sampling/createMessage' },
    });
  });

  it('refuses tools/call when the page offers no tools (a policy without it)', () => {
    const noTools: AppMessagePolicy = { ...policy, methods: new Set(APP_METHODS.filter((m) => m !== 'tools/call')) };
    const verdict = screenAppMessage({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'rm' } }, noTools);
    expect(verdict.ok ? null : verdict.refusal.code).toBe('method-not-allowed');
  });

  it('refuses a message from another window, whatever it asks', () => {
    const verdict = screenAppMessage({ jsonrpc: '2.0', id: 2, method: 'ui/initialize', params: {} }, policy, { fromApp: false });
    expect(verdict.ok ? null : verdict.refusal).toMatchObject({ code: 'wrong-source', errorCode: -32600, id: 2 });
  });

  it('refuses a message over the size limit, counted in UTF-8 bytes', () => {
    const small: AppMessagePolicy = { ...policy, maxMessageBytes: 100 };
    const ascii = { jsonrpc: '2.0', method: 'notifications/message', params: { data: 'a'.repeat(20) } };
    expect(screenAppMessage(ascii, small).ok).toBe(true);
    // 20 characters of 3 bytes each: under 100 characters, over 100 bytes.
    const wide = { jsonrpc: '2.0', id: 5, method: 'notifications/message', params: { data: '€'.repeat(20) } };
    expect(JSON.stringify(wide).length).toBeLessThan(100);
    expect(screenAppMessage(wide, small)).toEqual({ ok: false, refusal: { code: 'too-large', reason: 'the message is larger than 100 bytes', errorCode: -32600, id: 5, method: 'notifications/message' } });
    // Astral characters count 4 bytes once, not 3 for each half of their pair.
    const emoji = { jsonrpc: '2.0', method: 'ping', params: { s: '😀'.repeat(12) } };
    expect(JSON.stringify(emoji).length + 12 * 2).toBeLessThanOrEqual(100);
    expect(screenAppMessage(emoji, small).ok).toBe(true);
  });

  it('refuses what is not JSON-RPC 2.0, or not JSON at all, without throwing', () => {
    const cyclic: Record<string, unknown> = { jsonrpc: '2.0', method: 'ping' };
    cyclic['self'] = cyclic;
    for (const data of [null, 42, 'ping', [], { method: 'ping' }, { jsonrpc: '1.0', method: 'ping' }, { jsonrpc: '2.0' }, { jsonrpc: '2.0', id: {}, method: 'ping' }, { jsonrpc: '2.0', method: 5 }, cyclic, { jsonrpc: '2.0', id: 1n, method: 'ping' }]) {
      const verdict = screenAppMessage(data, policy);
      expect(verdict.ok).toBe(false);
      expect(verdict.ok ? null : verdict.refusal.code).toBe('not-json-rpc');
    }
  });

  it('never throws and never lets through a method outside the policy, whatever it is given', () => {
    fc.assert(
      fc.property(fc.anything({ withBigInt: true, withMap: true, withSet: true, withNullPrototype: true }), fc.string(), (params, method) => {
        const verdict = screenAppMessage({ jsonrpc: '2.0', id: 1, method, params }, policy);
        if (verdict.ok) expect(policy.methods.has(method)).toBe(true);
        expect(() => screenAppMessage(params, policy)).not.toThrow();
      }),
      { seed: 29, numRuns: 300 },
    );
  });

  it('refuses ui/open-link outside the allowed origins with -32602 and the origin asked for', () => {
    const verdict = screenAppMessage({ jsonrpc: '2.0', id: 9, method: 'ui/open-link', params: { url: 'https://evil.example/x?leak=1' } }, policy);
    expect(verdict.ok ? null : verdict.refusal).toEqual({
      code: 'link-not-allowed',
      reason: 'the app asked to open a link to https://evil.example, which is not an allowed origin',
      errorCode: -32602,
      id: 9,
      method: 'ui/open-link',
    });
    expect(screenAppMessage({ jsonrpc: '2.0', id: 10, method: 'ui/open-link', params: { url: 'https://docs.example.com/guide' } }, policy).ok).toBe(true);
  });
});

describe('checkAppLink', () => {
  it('allows exactly the listed origins, after normalising both', () => {
    expect(checkAppLink('https://DOCS.example.com:443/a', ['https://docs.example.com'])).toBeNull();
    expect(checkAppLink('https://docs.example.com.evil.example/', ['https://docs.example.com'])).toMatch(/not an allowed origin/);
    expect(checkAppLink('http://docs.example.com/', ['https://docs.example.com'])).toMatch(/not an allowed origin/);
    expect(checkAppLink('https://user@docs.example.com/', ['https://docs.example.com'])).toBeNull();
  });

  it('refuses links that are not http(s), not URLs, or missing, and every link when none is allowed', () => {
    expect(checkAppLink('javascript:alert(1)', ['https://docs.example.com'])).toBe('the app asked to open "javascript:alert(1)", which is not an http(s) link');
    expect(checkAppLink('data:text/html,hi', ['https://docs.example.com'])).toMatch(/not an http\(s\) link/);
    expect(checkAppLink('not a url', ['https://docs.example.com'])).toMatch(/which is not a URL/);
    expect(checkAppLink(undefined, ['https://docs.example.com'])).toBe('the app asked to open a link without a URL');
    expect(checkAppLink('https://docs.example.com/', [])).toMatch(/not an allowed origin/);
    expect(checkAppLink('https://docs.example.com/', ['not an origin'])).toMatch(/not an allowed origin/);
  });
});

describe('refusalResponse', () => {
  it('answers a refused request with a JSON-RPC error carrying the reason and its code', () => {
    const verdict = screenAppMessage({ jsonrpc: '2.0', id: 4, method: 'secrets/read' }, policy);
    if (verdict.ok) throw new Error('expected a refusal');
    expect(refusalResponse(verdict.refusal)).toEqual({
      jsonrpc: '2.0',
      id: 4,
      error: { code: -32601, message: 'the app asked for "secrets/read", which this page does not offer', data: { reason: 'method-not-allowed' } },
    });
  });

  it('has no answer for a notification, which JSON-RPC never answers', () => {
    const verdict = screenAppMessage({ jsonrpc: '2.0', method: 'secrets/changed' }, policy);
    if (verdict.ok) throw new Error('expected a refusal');
    expect(refusalResponse(verdict.refusal)).toBeNull();
  });
});

describe('withContentSecurityPolicy', () => {
  const meta = (doc: string) => doc.indexOf('<meta http-equiv="Content-Security-Policy"');

  it('puts the policy first, after the doctype, before anything the app wrote', () => {
    const doc = withContentSecurityPolicy('<!DOCTYPE html>\n<html><head><script>1</script></head></html>', DEFAULT_APP_CSP);
    expect(doc.startsWith('<!doctype html><meta http-equiv="Content-Security-Policy" content="default-src \'none\';')).toBe(true);
    expect(meta(doc)).toBeLessThan(doc.indexOf('<script>'));
  });

  it('cannot be hidden in a comment or pushed behind a head the app wrote first', () => {
    const doc = withContentSecurityPolicy('<!-- <head> --><script>steal()</script><head></head>', DEFAULT_APP_CSP);
    expect(meta(doc)).toBe('<!doctype html>'.length);
  });

  it('escapes the policy as an attribute value', () => {
    const doc = withContentSecurityPolicy('<p>hi</p>', 'default-src "none"><script>x</script>');
    expect(doc).not.toContain('<script>x');
    expect(doc).toContain('content="default-src &quot;none&quot;>&lt;script>x&lt;/script>"');
  });

  it('is what a browser reads as the document’s policy', () => {
    const parsed = new DOMParser().parseFromString(withContentSecurityPolicy('<!-- <head> --><html><head><title>t</title></head><body>b</body></html>', DEFAULT_APP_CSP), 'text/html');
    expect(parsed.compatMode).toBe('CSS1Compat');
    const first = parsed.head.firstElementChild;
    expect(first?.getAttribute('http-equiv')).toBe('Content-Security-Policy');
    expect(first?.getAttribute('content')).toBe(DEFAULT_APP_CSP);
  });
});
