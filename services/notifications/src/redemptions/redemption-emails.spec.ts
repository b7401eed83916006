import { composeEmail, ESIM_QR_CID } from '../templates/emails';
import ur from '../templates/locales/ur.json';

const LPA = 'LPA:1$smdp.example.com$ABCDE-12345-<x>';
const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47]).toString('base64');

describe('redemption emails', () => {
  it('puts the QR code inline (cid attachment) and the activation code in both parts, in the user language', () => {
    const mail = composeEmail({
      kind: 'esimReady',
      to: 'a@example.test',
      locale: 'ur',
      data: { name: 'Ana', amountGB: 3, lpaCode: LPA, qrPngBase64: PNG, appUrl: 'https://app.example/esims' },
    });
    expect(mail.subject).toBe(ur.esimReady.subject);
    expect(mail.html).toContain('dir="rtl"');
    expect(mail.html).toContain(`src="cid:${ESIM_QR_CID}"`);
    expect(mail.html).toContain('LPA:1$smdp.example.com$ABCDE-12345-&lt;x&gt;');
    expect(mail.text).toContain(LPA);
    expect(mail.text).toContain(ur.esimReady.intro.replace('{{amountGB}}', '3'));
    expect(mail.text).toContain(ur.esimReady.manual);
    expect(mail.attachments).toEqual([{ filename: 'esim-qr.png', contentType: 'image/png', cid: ESIM_QR_CID, content: Buffer.from(PNG, 'base64') }]);
  });

  it('tells a gifted user how much and where to claim it', () => {
    const mail = composeEmail({ kind: 'dataGifted', to: 'a@example.test', locale: 'ur', data: { name: null, amountGB: 5, claimUrl: 'https://app.example/dashboard' } });
    expect(mail.subject).toBe(ur.dataGifted.subject.replace('{{amountGB}}', '5'));
    expect(mail.text).toContain('https://app.example/dashboard');
    expect(mail.attachments).toBeUndefined();
  });
});
