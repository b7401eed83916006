import { applicationServerKey } from './pushSubscription';

describe('Web Push subscription', () => {
  it('turns the base64url VAPID public key into the 65 bytes pushManager.subscribe wants', () => {
    const raw = new Uint8Array(65).map((_, i) => (i * 37 + 4) % 256);
    raw[0] = 4;
    const key = Buffer.from(raw).toString('base64url');
    expect(key).toMatch(/^[A-Za-z0-9_-]{87}$/);
    expect(Array.from(applicationServerKey(key))).toEqual(Array.from(raw));
  });
});
