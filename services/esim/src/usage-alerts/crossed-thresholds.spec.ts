import { crossedThresholds, usedPercent } from './crossed-thresholds';

const settings = { percentUsed: 80, mbLeft: 100 };

describe('low-data thresholds', () => {
  it('reaches none on a line with most of its data left', () => {
    expect(crossedThresholds({ remainingMb: 1024, allowedMb: 1024 }, settings)).toEqual([]);
    expect(crossedThresholds({ remainingMb: 205, allowedMb: 1024 }, settings)).toEqual([]);
  });

  it('reaches the used share at exactly the setting, and the MB left at or below it', () => {
    expect(crossedThresholds({ remainingMb: 204, allowedMb: 1024 }, settings)).toEqual([{ threshold: 'percent_used', value: 80 }]);
    expect(crossedThresholds({ remainingMb: 100, allowedMb: 1024 }, settings)).toEqual([
      { threshold: 'percent_used', value: 80 },
      { threshold: 'mb_left', value: 100 },
    ]);
    // A large line: 100 MB left is long after 80 % used; a tiny one is low from the start.
    expect(crossedThresholds({ remainingMb: 600, allowedMb: 10_240 }, settings)).toEqual([{ threshold: 'percent_used', value: 80 }]);
    expect(crossedThresholds({ remainingMb: 90, allowedMb: 90 }, settings)).toEqual([{ threshold: 'mb_left', value: 100 }]);
  });

  it('reaches none when KeepGo gave no counters', () => {
    expect(crossedThresholds({ remainingMb: null, allowedMb: 1024 }, settings)).toEqual([]);
    expect(crossedThresholds({ remainingMb: 0, allowedMb: 0 }, settings)).toEqual([]);
  });

  it('counts the used share in whole percent, within 0-100', () => {
    expect(usedPercent({ remainingMb: 1023, allowedMb: 1024 })).toBe(0);
    expect(usedPercent({ remainingMb: 0, allowedMb: 1024 })).toBe(100);
    expect(usedPercent({ remainingMb: 2048, allowedMb: 1024 })).toBe(0);
  });
});
