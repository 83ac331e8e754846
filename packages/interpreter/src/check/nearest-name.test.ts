import { describe, expect, it } from 'vitest';
import { nearestName } from './nearest-name.ts';

const names = ['tool.str.toupper', 'tool.str.tolower', 'tool.str.join', 'tool.math.add', 'tool.list.append'];

describe('nearestName', () => {
  it('finds typos and wrong groups', () => {
    expect(nearestName('tool.str.touper', names)).toBe('tool.str.toupper');
    expect(nearestName('tool.string.toupper', names)).toBe('tool.str.toupper');
    expect(nearestName('tool.maths.add', names)).toBe('tool.math.add');
  });
  it('gives nothing when nothing is close', () => {
    expect(nearestName('tool.network.fetchpage', names)).toBeUndefined();
    expect(nearestName('tool.x', [])).toBeUndefined();
  });
});
