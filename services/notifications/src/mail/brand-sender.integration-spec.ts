import { BRAND_NAME, LOCALES } from '@esim/contracts';
import { Metrics } from '@esim/platform';
import { TestMailServer } from '@esim/testing';
import { notificationsConfigSchema } from '../config';
import { composeEmail } from '../templates/emails';
import { createMailTransport } from './mail-transport';

/**
 * One brand in every email: what a mail client shows as the sender, the heading and the signature
 * are BRAND_NAME in every language, whatever display name MAIL_FROM carries. Sent through the real
 * SMTP transport to a real SMTP server.
 */
describe('emails carry the one brand name', () => {
  const server = new TestMailServer();

  beforeAll(async () => {
    await server.start();
  });
  afterAll(async () => {
    await server.stop();
  });

  it.each(LOCALES)('%s: sender name, heading and signature are the brand', async (locale) => {
    // The test server's MAIL_FROM has another display name on purpose: only its mailbox may be used.
    const config = notificationsConfigSchema.parse({ ...server.env(), MAIL_FROM: 'Another Name <no-reply@test.local>' });
    const transport = createMailTransport(config, new Metrics('notifications'));
    const to = `brand-${locale}@test.local`;
    const email = composeEmail({ kind: 'dataGifted', to, locale, data: { name: 'Ana', amountGB: 3, claimUrl: 'http://localhost/dashboard' } });
    try {
      await transport.send({ to, ...email });
    } finally {
      transport.close();
    }
    const mail = await server.waitForMail(to);
    expect(mail.fromName).toBe(BRAND_NAME);
    expect(mail.from).toBe('no-reply@test.local');
    const signatureLine = mail.text.split('\n').slice(0, mail.text.split('\n').indexOf('—')).filter(Boolean).at(-1);
    expect(signatureLine).toContain(BRAND_NAME);
    expect(mail.html).toContain(`<h1 style="font-size:20px">${BRAND_NAME}</h1>`);
    expect(mail.text).not.toMatch(/Free Data|eSIM Rewards|\{\{brand\}\}/);
  });
});
