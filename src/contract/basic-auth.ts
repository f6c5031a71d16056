/**
 * HTTP Basic authorization as the API expects it (SPEC.md §7: `Authorization: Basic
 * base64(login:secret)`), shared by the page's HTTP client, the outbox and the service worker so
 * that all three encode and read it the same way. UTF-8 safe: `btoa` alone rejects characters
 * outside Latin-1, so the text is encoded to UTF-8 bytes first.
 */

/** `Basic base64(login:secret)` of the UTF-8 bytes of `login:secret`. */
export function basicAuth(login: string, secret: string): string {
  const bytes = new TextEncoder().encode(`${login}:${secret}`);
  let binary = '';
  for (const b of bytes) binary += String.fromCharCode(b);
  return `Basic ${btoa(binary)}`;
}

/** The login of a `Basic base64(login:secret)` header (UTF-8), or null when it is not one. */
export function basicAuthLogin(authorization: string | null): string | null {
  if (!authorization?.startsWith('Basic ')) return null;
  try {
    const bytes = Uint8Array.from(atob(authorization.slice(6)), (c) => c.charCodeAt(0));
    const text = new TextDecoder().decode(bytes);
    const colon = text.indexOf(':');
    return colon > 0 ? text.slice(0, colon) : null;
  } catch {
    return null;
  }
}
