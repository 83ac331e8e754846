/**
 * Opens a URL in the person's browser with the platform's opener. Best
 * effort: the URL is printed anyway, so a machine without a desktop (a
 * server, a container) loses nothing when the opener is missing or fails.
 */
import { spawn } from 'node:child_process';

/** The opener command for a platform. */
function opener(platform: NodeJS.Platform, url: string): { command: string; args: string[] } {
  if (platform === 'darwin') return { command: 'open', args: [url] };
  // `start` is a cmd built-in; the empty string is the window title it would otherwise take from the URL.
  if (platform === 'win32') return { command: 'cmd', args: ['/c', 'start', '""', url] };
  return { command: 'xdg-open', args: [url] };
}

/** Starts the opener detached and ignores every failure. */
export function openBrowser(url: string, platform: NodeJS.Platform = process.platform): void {
  const { command, args } = opener(platform, url);
  try {
    const child = spawn(command, args, { detached: true, stdio: 'ignore' });
    child.on('error', () => {});
    child.unref();
  } catch {
    // No opener: the printed URL is enough.
  }
}
