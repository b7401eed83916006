import { OutcomeNotices } from './outcomeNotices';

describe('one notice per eSIM outcome', () => {
  it('keeps the live notice quiet while a redemption waits for its answer (the live one may come first)', () => {
    const notices = new OutcomeNotices();
    expect(notices.liveMayTell()).toBe(true);
    notices.begin();
    expect(notices.liveMayTell()).toBe(false);
  });

  it('keeps it quiet for a while after the page told the outcome, then lets it speak again', () => {
    let now = 0;
    const notices = new OutcomeNotices(15_000, () => now);
    notices.begin();
    notices.end(true);
    now = 14_000;
    expect(notices.liveMayTell()).toBe(false);
    now = 16_000;
    expect(notices.liveMayTell()).toBe(true);
  });

  it('lets the live notice tell an outcome the page did not (still processing, failed)', () => {
    const notices = new OutcomeNotices();
    notices.begin();
    notices.end(false);
    expect(notices.liveMayTell()).toBe(true);
  });
});
