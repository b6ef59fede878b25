/**
 * The frame's Content-Security-Policy from a resource's `_meta.ui.csp` (docs/protocol.md, "MCP
 * Apps"): each declared origin is added to its directives only where the page allows it, so the
 * policy is never wider than the page's allowance; anything else is left out with a reason.
 */
import { describe, expect, it } from 'vitest';
import { DEFAULT_APP_CSP, appContentSecurityPolicy, resourceCsp } from 'toolgate/mcp-apps';

const directive = (policy: string, name: string): string | undefined => policy.split('; ').find((d) => d.startsWith(`${name} `));

describe('appContentSecurityPolicy', () => {
  it('is the default policy when nothing is declared, or nothing is allowed', () => {
    expect(appContentSecurityPolicy(undefined).policy).toBe(DEFAULT_APP_CSP);
    expect(appContentSecurityPolicy({}, { connectDomains: ['https://api.example.com'] }).policy).toBe(DEFAULT_APP_CSP);
    const none = appContentSecurityPolicy({ connectDomains: ['https://api.example.com'] });
    expect(none.policy).toBe(DEFAULT_APP_CSP);
    expect(none.granted.connectDomains).toEqual([]);
    expect(none.refused).toEqual([{ list: 'connectDomains', domain: 'https://api.example.com', reason: 'the app declared https://api.example.com in connectDomains, which this page does not allow' }]);
  });

  it('adds each allowed origin to the directives of its list, and nothing else', () => {
    const { policy, granted, refused } = appContentSecurityPolicy(
      {
        connectDomains: ['https://API.example.com', 'wss://live.example.com', 'https://tracker.example'],
        resourceDomains: ['https://cdn.example.net'],
        frameDomains: ['https://player.example.org'],
        baseUriDomains: ['https://cdn.example.net'],
      },
      {
        connectDomains: ['https://api.example.com', 'wss://live.example.com'],
        resourceDomains: ['https://*.example.net'],
        frameDomains: ['https://player.example.org'],
        baseUriDomains: ['https://cdn.example.net'],
      },
    );
    expect(policy).toBe(
      "default-src 'none'; script-src 'unsafe-inline' blob: data: https://cdn.example.net; style-src 'unsafe-inline' https://cdn.example.net; " +
        "img-src data: blob: https://cdn.example.net; font-src data: https://cdn.example.net; media-src data: blob: https://cdn.example.net; " +
        "connect-src https://api.example.com wss://live.example.com; frame-src https://player.example.org; form-action 'none'; base-uri https://cdn.example.net",
    );
    expect(granted.connectDomains).toEqual(['https://api.example.com', 'wss://live.example.com']);
    expect(refused.map((r) => r.domain)).toEqual(['https://tracker.example']);
  });

  it('reads a wildcard as CSP does: subdomains only, same scheme and port', () => {
    const allowed = { connectDomains: ['https://*.example.com'] };
    const verdict = (domain: string) => appContentSecurityPolicy({ connectDomains: [domain] }, allowed).granted.connectDomains.length === 1;
    expect(verdict('https://a.example.com')).toBe(true);
    expect(verdict('https://a.b.example.com')).toBe(true);
    expect(verdict('https://*.b.example.com')).toBe(true);
    expect(verdict('https://*.example.com')).toBe(true);
    expect(verdict('https://example.com')).toBe(false);
    expect(verdict('https://*.com')).toBe(false);
    expect(verdict('http://a.example.com')).toBe(false);
    expect(verdict('https://a.example.com:8443')).toBe(false);
    expect(verdict('https://a.example.com.evil.test')).toBe(false);
    // An exact origin allows only itself, never a wildcard.
    expect(appContentSecurityPolicy({ connectDomains: ['https://*.api.example.com'] }, { connectDomains: ['https://api.example.com'] }).granted.connectDomains).toEqual([]);
  });

  it('refuses entries that are not origins, so nothing can add a directive or a keyword', () => {
    const allowed = { connectDomains: ['https://a.example.com', '*', "'unsafe-eval'"], resourceDomains: ['https://a.example.com'] };
    const { policy, refused } = appContentSecurityPolicy(
      {
        connectDomains: ['https://a.example.com; script-src *', "'unsafe-eval'", '*', 'https://a.example.com/path', 'javascript://a.example.com', 42, 'https://a.example.com extra'],
        resourceDomains: 'https://a.example.com',
        frameDomains: null,
      },
      allowed,
    );
    expect(policy).toBe(DEFAULT_APP_CSP);
    expect(refused.filter((r) => r.list === 'connectDomains')).toHaveLength(7);
    expect(refused.every((r) => /not an origin|not a list/.test(r.reason))).toBe(true);
    expect(refused.find((r) => r.list === 'resourceDomains')?.reason).toBe("the app's resourceDomains is not a list of origins");
    expect(directive(policy, 'connect-src')).toBe("connect-src 'none'");
  });

  it('never throws on any declaration', () => {
    for (const odd of [null, 7, 'x', [], { connectDomains: [{}] }, { connectDomains: [undefined] }, Object.create(null)]) {
      expect(() => appContentSecurityPolicy(odd, { connectDomains: ['https://a.example.com'] })).not.toThrow();
    }
  });
});

describe('resourceCsp', () => {
  it('reads _meta.ui.csp, and nothing from any other shape', () => {
    expect(resourceCsp({ ui: { csp: { connectDomains: ['https://a.example.com'] } } })).toEqual({ connectDomains: ['https://a.example.com'] });
    expect(resourceCsp({ ui: {} })).toBeUndefined();
    expect(resourceCsp({ ui: { csp: 'x' } })).toBeUndefined();
    expect(resourceCsp(undefined)).toBeUndefined();
    expect(resourceCsp({ 'ui/csp': {} })).toBeUndefined();
  });
});
