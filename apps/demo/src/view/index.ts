/** The session viewer behind `askloop view`: a loopback web page over a TranscriptStore. */
export { MAX_LIVE_FEEDS, startViewer, type Viewer, type ViewerErrorCode, type ViewerOptions } from './start-viewer.ts';
export { isAllowedHost } from './host-allowed.ts';
export { isCrossSiteRequest } from './cross-site.ts';
export { openBrowser } from './open-browser.ts';
export { matchSessionId, MIN_SID_PREFIX, type SessionMatch } from './match-session-id.ts';
export { resolveSessionId } from './resolve-session-id.ts';
export { createSecretRedactor, REDACTED } from '../redact-secrets.ts';
export { listSessionPage, parseSessionListQuery, MAX_LIST_OFFSET, MAX_LIST_SEARCH, type SessionListPage, type SessionListQuery } from './session-list-page.ts';
export { sessionSummary, type SessionSummary } from './session-summary.ts';
export { viewerPage, type ViewerPage } from './viewer-page.ts';
export { watchSession, type SessionWatcher } from './watch-session.ts';
