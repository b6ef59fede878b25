/**
 * Which web pages may open a session (docs/architecture.md, "The reference server": WebSocket upgrades only from
 * allowed origins). A browser always sends `Origin` with a WebSocket upgrade, and a page cannot
 * forge it: checking it is what stops another site's page, open in the same browser, from driving
 * a session with the person's network position. A client that is not a browser sends no `Origin`
 * (or any it likes), so the check cannot stop it; only authentication can (README "Running it for
 * real").
 */

/** An explicit list of origins (`https://app.example.com`), or a function that decides. */
export type OriginPolicy = readonly string[] | ((origin: string) => boolean);

/** `scheme://host[:port]` as browsers send it (lowercase host, default port dropped), or undefined. */
export function normalizeOrigin(value: string): string | undefined {
  if (value === 'null') return 'null';
  try {
    const url = new URL(value);
    if (url.origin === 'null') return undefined;
    return url.origin;
  } catch {
    return undefined;
  }
}

/**
 * Origins from a comma- or space-separated list (the `TOOLGATE_ALLOWED_ORIGINS` variable). Throws
 * on an entry that is not an origin, so that a typo does not silently lock everyone out.
 */
export function parseOriginList(text: string | undefined): string[] {
  if (text === undefined) return [];
  const origins: string[] = [];
  for (const entry of text.split(/[\s,]+/).filter(Boolean)) {
    const origin = normalizeOrigin(entry);
    if (origin === undefined) throw new Error(`not an origin: ${JSON.stringify(entry)} (write scheme://host[:port])`);
    origins.push(origin);
  }
  return origins;
}

/**
 * Whether an upgrade with this `Origin` header may go on. No header: not a browser, let through
 * (see above). A header that is not an origin is refused.
 */
export function originAllowed(policy: OriginPolicy, header: string | undefined): boolean {
  if (header === undefined) return true;
  const origin = normalizeOrigin(header);
  if (origin === undefined) return false;
  if (typeof policy === 'function') return policy(origin);
  return policy.some((allowed) => normalizeOrigin(allowed) === origin);
}
