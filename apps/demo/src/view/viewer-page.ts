/**
 * The one page the viewer serves: HTML with the stylesheet and script inline
 * (nothing is fetched from anywhere but the viewer's own API), and the
 * Content-Security-Policy that admits exactly those two by hash.
 */
import { createHash } from 'node:crypto';
import { VIEWER_SCRIPT } from './viewer-script.ts';
import { VIEWER_STYLE } from './viewer-style.ts';

/** The page and the headers it is served with. */
export interface ViewerPage {
  readonly html: string;
  readonly contentSecurityPolicy: string;
}

const sha256 = (text: string) => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;

/** Builds the page (the same for every request; sessions load through the API). */
export function viewerPage(): ViewerPage {
  const html = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>AskLoop sessions</title>
<style>${VIEWER_STYLE}</style>
</head>
<body>
<header class="top"><span class="brand">Ask<span>Loop</span></span><span class="where" id="where"></span></header>
<main id="app"><div class="empty">Loading…</div></main>
<script>${VIEWER_SCRIPT}</script>
</body>
</html>
`;
  const contentSecurityPolicy = [
    "default-src 'none'",
    `script-src ${sha256(VIEWER_SCRIPT)}`,
    `style-src ${sha256(VIEWER_STYLE)}`,
    "connect-src 'self'",
    "img-src 'self'",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
  return { html, contentSecurityPolicy };
}
