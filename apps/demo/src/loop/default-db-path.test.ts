import { describe, expect, it } from 'vitest';
import { defaultDbPath } from './default-db-path.ts';

describe('defaultDbPath', () => {
  it('uses XDG_DATA_HOME when it is an absolute path, else ~/.local/share', () => {
    expect(defaultDbPath({ XDG_DATA_HOME: '/data', HOME: '/home/ada' })).toBe('/data/askloop/sessions.db');
    expect(defaultDbPath({ HOME: '/home/ada' })).toBe('/home/ada/.local/share/askloop/sessions.db');
    // The XDG base directory spec: a relative value is invalid and ignored.
    expect(defaultDbPath({ XDG_DATA_HOME: 'relative/dir', HOME: '/home/ada' })).toBe('/home/ada/.local/share/askloop/sessions.db');
    expect(defaultDbPath({ XDG_DATA_HOME: '', HOME: '/home/ada' })).toBe('/home/ada/.local/share/askloop/sessions.db');
  });
});
