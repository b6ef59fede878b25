/**
 * base64url (RFC 4648 section 5, no padding) over bytes, with btoa/atob only, which every
 * runtime the server entry promises has (browsers, Node, Deno, edge workers): no Buffer.
 */

export function toBase64Url(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replaceAll('+', '-').replaceAll('/', '_').replace(/=+$/, '');
}

/** The bytes of a base64url text, or `undefined` when it is not base64url (padding refused). */
export function fromBase64Url(text: string): Uint8Array | undefined {
  if (!/^[A-Za-z0-9_-]*$/.test(text) || text.length % 4 === 1) return undefined;
  let binary: string;
  try {
    binary = atob(text.replaceAll('-', '+').replaceAll('_', '/'));
  } catch {
    return undefined;
  }
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  // One text per byte string: trailing bits that atob ignores would let two tokens mean one.
  return toBase64Url(bytes) === text ? bytes : undefined;
}
