/**
 * The viewer answers only its own page, not other sites' pages. The Host
 * check stops a page that points its own name at 127.0.0.1 (DNS rebinding);
 * a page on any site can still send requests to `http://127.0.0.1:PORT`
 * itself. It cannot read the answers (no CORS headers), but it can make the
 * viewer read and serialise a long session again and again, hold live feeds
 * open, and time the answers to learn which session ids exist. Browsers say
 * where a request comes from (`Sec-Fetch-Site`, and `Origin` on CORS
 * requests), so such a request is refused before any work; following a link
 * to the viewer from another site still opens it.
 */
import type { IncomingHttpHeaders } from 'node:http';

/**
 * True when a browser says the request was made by a page of another site or
 * origin: `Sec-Fetch-Site` other than `same-origin` or `none` (typed in the
 * address bar, opened by `askloop view`) unless it is a top-level navigation
 * (a followed link: `Sec-Fetch-Mode: navigate`, `Sec-Fetch-Dest: document`), or
 * an `Origin` other than `http://HOST` of the request's own (checked) Host.
 * Requests without these headers (curl, scripts, old browsers) are not.
 */
export function isCrossSiteRequest(headers: IncomingHttpHeaders): boolean {
  const site = headers['sec-fetch-site'];
  if (site !== undefined && site !== 'same-origin' && site !== 'none' && !(headers['sec-fetch-mode'] === 'navigate' && headers['sec-fetch-dest'] === 'document')) return true;
  const origin = headers.origin;
  return origin !== undefined && origin.toLowerCase() !== `http://${String(headers.host).toLowerCase()}`;
}
