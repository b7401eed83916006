import { lineRefundState } from './line-refund-state';

describe('what KeepGo says of a bought line, for a refund', () => {
  it('is untouched when registered with all its data', () => {
    expect(lineRefundState({ status: 'Registered', remainingMb: 1024, allowedMb: 1024 })).toBe('untouched');
    expect(lineRefundState({ status: 'Registered', remainingMb: null, allowedMb: null })).toBe('untouched');
  });

  it('is installed once on a phone, used once data went, cancelled once deactivated', () => {
    expect(lineRefundState({ status: 'Activated', remainingMb: 1024, allowedMb: 1024 })).toBe('installed');
    expect(lineRefundState({ status: 'Registered', remainingMb: 1019, allowedMb: 1024 })).toBe('used');
    expect(lineRefundState({ status: 'Deactivated', remainingMb: 1019, allowedMb: 1024 })).toBe('cancelled');
  });
});
