import { composeEmail } from './emails';
import de from './locales/de.json';

describe('composed emails', () => {
  it('tells the old address the new one, in the account language', () => {
    const mail = composeEmail({ kind: 'emailChanged', to: 'old@example.test', locale: 'de', data: { newEmail: 'new@example.test' } });
    expect(mail.subject).toBe(de.emailChanged.subject);
    expect(mail.language).toBe('de');
    expect(mail.text).toContain(de.emailChanged.intro.replace('{{email}}', 'new@example.test'));
    expect(mail.text).toContain(de.emailChanged.ignore);
    expect(mail.html).toContain('new@example.test');
  });

  it('escapes every value in the HTML part and leaves the text part as written', () => {
    const name = `<img src=x onerror="alert('x')"> & co`;
    const mail = composeEmail({
      kind: 'verificationCode',
      to: 'a@example.test',
      locale: 'en',
      data: { name, code: '123456', minutes: 10 },
    });
    expect(mail.html).not.toContain('<img');
    expect(mail.html).toContain('&lt;img src=x onerror=&quot;alert(&#39;x&#39;)&quot;&gt; &amp; co');
    expect(mail.text).toContain(name);
  });
});
