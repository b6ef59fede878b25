/**
 * The frame's Content-Security-Policy from what the app's resource declares (docs/protocol.md,
 * "MCP Apps"). An MCP App's `ui://` resource may say which origins it needs in its `_meta.ui.csp`
 * (`connectDomains` for fetch, XHR and WebSocket; `resourceDomains` for scripts, styles, images,
 * fonts and media; `frameDomains` for nested frames; `baseUriDomains` for `<base>`). The MCP Apps
 * spec lets a host narrow that, never widen it; here the page narrows it to what it allows
 * (`allowedDomains`), so the policy is never wider than either: a declared origin the page does
 * not allow is left out and reported with the reason, and with nothing declared (or nothing
 * allowed) the policy is the default one, which connects nowhere.
 *
 * Pure: a page can unit-test its allowance with it.
 */
import { DEFAULT_APP_CSP } from './app-document';

/**
 * Origins an app's resource declares (its `_meta.ui.csp`, the MCP Apps spec's `McpUiResourceCsp`),
 * or that a page allows. Each entry is an origin, `scheme://host[:port]` with scheme `https`,
 * `http`, `wss` or `ws`; the host may start with `*.` for any of its subdomains.
 *
 * @example
 * const allowed: McpAppCsp = { connectDomains: ['https://api.weather.example'], resourceDomains: ['https://*.tiles.example'] };
 */
export interface McpAppCsp {
  connectDomains?: readonly string[];
  resourceDomains?: readonly string[];
  frameDomains?: readonly string[];
  baseUriDomains?: readonly string[];
}

/**
 * One of the four lists of {@link McpAppCsp}.
 *
 * @example
 * const list: McpAppCspList = 'connectDomains';
 */
export type McpAppCspList = keyof McpAppCsp;

/**
 * A declared origin the frame's policy leaves out, and why.
 *
 * @example
 * const left: McpAppCspRefusal = { list: 'connectDomains', domain: 'https://tracker.example', reason: 'the app declared https://tracker.example in connectDomains, which this page does not allow' };
 */
export interface McpAppCspRefusal {
  readonly list: McpAppCspList;
  readonly domain: string;
  readonly reason: string;
}

/**
 * What {@link appContentSecurityPolicy} gives: the policy, the origins it grants (what the app
 * may be told the host approved), and the declared origins it leaves out.
 *
 * @example
 * const { policy, granted, refused }: McpAppCspGrant = appContentSecurityPolicy(resource._meta, allowed);
 */
export interface McpAppCspGrant {
  readonly policy: string;
  readonly granted: { readonly [K in McpAppCspList]: readonly string[] };
  readonly refused: readonly McpAppCspRefusal[];
}

const LISTS: readonly McpAppCspList[] = ['connectDomains', 'resourceDomains', 'frameDomains', 'baseUriDomains'];

/** An origin as a CSP host-source: no path, no quotes, no spaces, no `;` (nothing that could add a directive or a keyword). */
const ORIGIN = /^(https?|wss?):\/\/(\*\.)?([a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)*)(?::(\d{1,5}))?$/;

interface Origin {
  scheme: string;
  wildcard: boolean;
  host: string;
  port: string;
}

function parseOrigin(entry: string): Origin | null {
  const match = ORIGIN.exec(entry.toLowerCase());
  if (match === null) return null;
  return { scheme: match[1]!, wildcard: match[2] !== undefined, host: match[3]!, port: match[4] ?? '' };
}

/** Whether the page's `allowed` origin covers the app's `declared` one: same scheme and port, and the host equal or under the allowed wildcard. */
function covers(allowed: Origin, declared: Origin): boolean {
  if (allowed.scheme !== declared.scheme || allowed.port !== declared.port) return false;
  if (!allowed.wildcard) return !declared.wildcard && allowed.host === declared.host;
  // `*.example.com` covers its subdomains (and a narrower or equal wildcard), not `example.com` itself, as CSP reads it.
  return declared.host.endsWith(`.${allowed.host}`) || (declared.wildcard && declared.host === allowed.host);
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The `csp` of a resource's `_meta` (`_meta.ui.csp`, as `resources/read` gives it), or `undefined`
 * when there is none. Anything that is not an object reads as none.
 *
 * @example
 * const declared = resourceCsp(contents[0]._meta); // { connectDomains: ['https://api.weather.example'] }
 */
export function resourceCsp(meta: unknown): McpAppCsp | undefined {
  if (!isRecord(meta) || !isRecord(meta['ui']) || !isRecord(meta['ui']['csp'])) return undefined;
  return meta['ui']['csp'] as McpAppCsp;
}

/**
 * The frame's Content-Security-Policy for what an app declares (`declared`: its resource's
 * `_meta.ui.csp`, any value) within what the page allows: the default policy
 * ({@link DEFAULT_APP_CSP}) with each declared origin the page allows added to its directives
 * (`connectDomains` to `connect-src`; `resourceDomains` to `script-src`, `style-src`, `img-src`,
 * `font-src` and `media-src`; `frameDomains` to `frame-src`; `baseUriDomains` to `base-uri`).
 * A declared entry that is not an origin, or that the page does not allow, is left out and listed
 * in `refused`. Never throws.
 *
 * @example
 * const { policy, refused } = appContentSecurityPolicy(
 *   { connectDomains: ['https://api.weather.example', 'https://tracker.example'] },
 *   { connectDomains: ['https://api.weather.example'] },
 * );
 * // policy: "… connect-src https://api.weather.example; …"; refused: [{ domain: 'https://tracker.example', … }]
 */
export function appContentSecurityPolicy(declared: unknown, allowed: McpAppCsp = {}): McpAppCspGrant {
  const granted: Record<McpAppCspList, string[]> = { connectDomains: [], resourceDomains: [], frameDomains: [], baseUriDomains: [] };
  const refused: McpAppCspRefusal[] = [];
  const source = isRecord(declared) ? declared : {};
  for (const list of LISTS) {
    const entries = source[list];
    if (entries === undefined) continue;
    if (!Array.isArray(entries)) {
      refused.push({ list, domain: '', reason: `the app's ${list} is not a list of origins` });
      continue;
    }
    const ceiling = (allowed[list] ?? []).map(parseOrigin).filter((origin): origin is Origin => origin !== null);
    for (const entry of entries) {
      const text = typeof entry === 'string' ? entry : JSON.stringify(entry) ?? String(entry);
      const origin = typeof entry === 'string' ? parseOrigin(entry) : null;
      if (origin === null) {
        refused.push({ list, domain: text, reason: `the app declared ${JSON.stringify(text.slice(0, 200))} in ${list}, which is not an origin (scheme://host[:port])` });
        continue;
      }
      const normal = `${origin.scheme}://${origin.wildcard ? '*.' : ''}${origin.host}${origin.port === '' ? '' : `:${origin.port}`}`;
      if (!ceiling.some((limit) => covers(limit, origin))) {
        refused.push({ list, domain: normal, reason: `the app declared ${normal} in ${list}, which this page does not allow` });
        continue;
      }
      if (!granted[list].includes(normal)) granted[list].push(normal);
    }
  }
  return { policy: policyWith(granted), granted, refused };
}

/** The default policy, each directive widened by the granted origins of its list. */
function policyWith(granted: Record<McpAppCspList, string[]>): string {
  const widen: Record<string, readonly string[]> = {
    'script-src': granted.resourceDomains,
    'style-src': granted.resourceDomains,
    'img-src': granted.resourceDomains,
    'font-src': granted.resourceDomains,
    'media-src': granted.resourceDomains,
    'connect-src': granted.connectDomains,
    'frame-src': granted.frameDomains,
    'base-uri': granted.baseUriDomains,
  };
  return DEFAULT_APP_CSP.split('; ')
    .map((directive) => {
      const [name, ...sources] = directive.split(' ');
      const more = widen[name!] ?? [];
      if (more.length === 0) return directive;
      // 'none' cannot stand beside a source: it is replaced by the granted origins.
      const kept = sources.filter((s) => s !== "'none'");
      return [name, ...kept, ...more].join(' ');
    })
    .join('; ');
}
