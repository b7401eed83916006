import {
  buildVersion,
  changesSession,
  decodeDataUrl,
  isAnotherUser,
  isOfflineRead,
  lpaOfQrRequest,
  offlineShell,
  qrFromWallet,
} from './offlineApi';

describe('what the service worker keeps for offline reading', () => {
  it('keeps the wallet reads and the session, nothing else', () => {
    for (const path of ['/api/user', '/api/esim-lines', '/api/esim-purchases', '/api/esim-lines/8900000000000000011/usage'])
      expect(isOfflineRead(path)).toBe(true);
    for (const path of [
      '/api/points-statement',
      '/api/gifts',
      '/api/tasks',
      '/api/esim-lines/x/usage/more',
      '/api/payment-config',
      '/esims',
    ])
      expect(isOfflineRead(path)).toBe(false);
  });

  it('forgets everything when the session changes', () => {
    expect(changesSession('POST', '/api/logout')).toBe(true);
    expect(changesSession('post', '/api/login')).toBe(true);
    expect(changesSession('POST', '/api/verify-email')).toBe(true);
    expect(changesSession('DELETE', '/api/user/account')).toBe(true);
    expect(changesSession('GET', '/api/logout')).toBe(false);
    expect(changesSession('POST', '/api/redeem-points')).toBe(false);
  });

  it("notices another account's /api/user", () => {
    expect(isAnotherUser({ id: 'a' }, { id: 'b' })).toBe(true);
    expect(isAnotherUser({ id: 'a' }, null)).toBe(true);
    expect(isAnotherUser({ id: 'a' }, { id: 'a' })).toBe(false);
    expect(isAnotherUser(null, { id: 'b' })).toBe(false);
  });

  it("answers the setup page's QR code from the kept wallet", () => {
    const lines = { lines: [{ lpaCode: 'LPA:1$a$1', qrCode: 'data:image/png;base64,AAAA' }] };
    const purchases = [
      { lpaCode: 'LPA:1$b$2', qrCode: 'data:image/png;base64,BBBB' },
      { lpaCode: 'LPA:1$c$3', qrCode: null },
    ];
    expect(lpaOfQrRequest(JSON.stringify({ data: 'LPA:1$b$2' }))).toBe('LPA:1$b$2');
    expect(lpaOfQrRequest('{bad json')).toBeNull();
    expect(lpaOfQrRequest(JSON.stringify({ data: '' }))).toBeNull();
    expect(qrFromWallet('LPA:1$a$1', [lines, purchases])).toBe('data:image/png;base64,AAAA');
    expect(qrFromWallet('LPA:1$b$2', [null, purchases])).toBe('data:image/png;base64,BBBB');
    expect(qrFromWallet('LPA:1$c$3', [lines, purchases])).toBeNull();
    expect(qrFromWallet('LPA:1$z$9', [lines, purchases])).toBeNull();
    expect(decodeDataUrl('data:image/png;base64,iVBORw0KGgo=')).toEqual({
      type: 'image/png',
      bytes: new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    });
    expect(decodeDataUrl('https://example.com/qr.png')).toBeNull();
  });

  it('keeps the shell as a signed-in page asks for the session', () => {
    expect(offlineShell('<div id="root" data-session="none"></div>')).toBe('<div id="root"></div>');
    expect(offlineShell('<div id="root"></div>')).toBe('<div id="root"></div>');
  });

  it("names each build's shell after its precache list", () => {
    const a = buildVersion([
      { url: '/assets/a.js', revision: null },
      { url: '/favicon.svg', revision: '1' },
    ]);
    expect(a).toBe(
      buildVersion([
        { url: '/assets/a.js', revision: null },
        { url: '/favicon.svg', revision: '1' },
      ]),
    );
    expect(a).not.toBe(
      buildVersion([
        { url: '/assets/a.js', revision: null },
        { url: '/favicon.svg', revision: '2' },
      ]),
    );
    expect(a).toMatch(/^[0-9a-z]+$/);
  });
});
