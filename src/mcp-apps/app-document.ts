/**
 * The app's document as the frame loads it: the server's HTML with a Content-Security-Policy put
 * in front of everything it holds (docs/protocol.md, "MCP Apps"). The sandbox already keeps the app
 * away from the page; the policy also keeps what the page tells it (tool input, results) from
 * being sent anywhere: by default it may run its own inline code and load `data:` and `blob:`
 * parts, and connect nowhere.
 */

/**
 * The frame document's default policy: no network, no frames, no forms; inline scripts and
 * styles, and `data:`/`blob:` parts.
 *
 * @example
 * <McpAppFrame html={html} title="Chart" contentSecurityPolicy={`${DEFAULT_APP_CSP}; img-src data: https://tiles.example.com`} />
 */
export const DEFAULT_APP_CSP =
  "default-src 'none'; script-src 'unsafe-inline' blob: data:; style-src 'unsafe-inline'; img-src data: blob:; font-src data:; media-src data: blob:; connect-src 'none'; frame-src 'none'; form-action 'none'; base-uri 'none'";

const DOCTYPE = /^\uFEFF?\s*<!doctype[^>]*>/i;

const attribute = (value: string): string => value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');

/**
 * `html` with a `<meta http-equiv="Content-Security-Policy">` as the first element of its
 * document. First, and before any `<head>` the HTML may write (or hide in a comment): the parser
 * opens the head for it, and the policy holds for all that follows. The doctype stays first so
 * the document keeps its standards mode.
 *
 * @example
 * frame.srcdoc = withContentSecurityPolicy(resource.text, DEFAULT_APP_CSP);
 */
export function withContentSecurityPolicy(html: string, policy: string): string {
  const meta = `<meta http-equiv="Content-Security-Policy" content="${attribute(policy)}">`;
  const doctype = DOCTYPE.exec(html);
  const body = doctype === null ? html : html.slice(doctype[0].length);
  return `<!doctype html>${meta}${body}`;
}
