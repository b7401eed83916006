import { z } from 'zod';
import { AUTO_TOPUP_OUTCOMES, localeSchema, PAYMENT_METHODS, PRICE_CURRENCIES } from '@esim/contracts';
import { messages, RenderedEmail, renderEmail } from './render-email';

/** Every email the product sends, with the data each needs. Jobs carry this, validated on both ends. */
export const emailJobSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('verificationCode'), to: z.string(), locale: localeSchema, data: z.object({ name: z.string().nullable(), code: z.string(), minutes: z.number() }) }),
  z.object({ kind: z.literal('existingAccount'), to: z.string(), locale: localeSchema, data: z.object({ signInUrl: z.string().url() }) }),
  z.object({ kind: z.literal('passwordReset'), to: z.string(), locale: localeSchema, data: z.object({ name: z.string().nullable(), resetUrl: z.string().url() }) }),
  z.object({ kind: z.literal('passwordChanged'), to: z.string(), locale: localeSchema, data: z.object({}) }),
  /** To the old address: the account's email is now `newEmail`. */
  z.object({ kind: z.literal('emailChanged'), to: z.string(), locale: localeSchema, data: z.object({ newEmail: z.string() }) }),
  /** A new eSIM was delivered: its QR code (PNG, base64) and activation code, and where the app shows it. */
  z.object({
    kind: z.literal('esimReady'),
    to: z.string(),
    locale: localeSchema,
    data: z.object({ name: z.string().nullable(), amountGB: z.number(), lpaCode: z.string(), qrPngBase64: z.string(), appUrl: z.string().url() }),
  }),
  /** An admin granted a claimable data gift. */
  z.object({
    kind: z.literal('dataGifted'),
    to: z.string(),
    locale: localeSchema,
    data: z.object({ name: z.string().nullable(), amountGB: z.number(), claimUrl: z.string().url() }),
  }),
  /** An operator added a top-up by hand, or a retried top-up went through (docs/admin.md). */
  z.object({
    kind: z.literal('dataDelivered'),
    to: z.string(),
    locale: localeSchema,
    data: z.object({ name: z.string().nullable(), amountGB: z.number(), iccid: z.string(), appUrl: z.string().url() }),
  }),
  /** A redemption an operator could not deliver: its points were given back. */
  z.object({
    kind: z.literal('pointsReturned'),
    to: z.string(),
    locale: localeSchema,
    data: z.object({ name: z.string().nullable(), amountGB: z.number(), points: z.number(), appUrl: z.string().url() }),
  }),
  /** A gift claim an operator could not deliver: the gift can be claimed again. */
  z.object({
    kind: z.literal('giftReturned'),
    to: z.string(),
    locale: localeSchema,
    data: z.object({ name: z.string().nullable(), amountGB: z.number(), appUrl: z.string().url() }),
  }),
  /** A card purchase whose eSIM could not be delivered was refunded; `amount` is formatted, e.g. "4.99 USD". */
  z.object({
    kind: z.literal('purchaseRefunded'),
    to: z.string(),
    locale: localeSchema,
    data: z.object({ name: z.string().nullable(), amountGB: z.number(), amount: z.string() }),
  }),
  /** A line crossed a low-data threshold (docs/wallet.md, "Low-data alerts"); the last line says why it came and where to stop it. */
  z.object({
    kind: z.literal('dataLow'),
    to: z.string(),
    locale: localeSchema,
    data: z.object({
      name: z.string().nullable(),
      last4: z.string(),
      remainingMb: z.number(),
      usedPercent: z.number(),
      appUrl: z.string().url(),
      settingsUrl: z.string().url(),
    }),
  }),
  /**
   * The weekly promotional digest, only to people with `marketingEmails` on (docs/accounts.md,
   * "What each switch governs"): the one-click unsubscribe URL goes in its List-Unsubscribe header.
   */
  z.object({
    kind: z.literal('marketingDigest'),
    to: z.string(),
    locale: localeSchema,
    data: z.object({
      name: z.string().nullable(),
      offersUrl: z.string().url(),
      settingsUrl: z.string().url(),
      /** The page of the body's link (a button there unsubscribes: opening a link changes nothing). */
      unsubscribePageUrl: z.string().url(),
      /** What a mail client's one-click POSTs to (List-Unsubscribe). */
      unsubscribeUrl: z.string().url(),
    }),
  }),
  /**
   * How an automatic top-up of a line ended (docs/wallet.md, "Telling the user"): the points taken
   * and the data on its way, or why nothing was done; the last line says why it came.
   */
  z.object({
    kind: z.literal('autoTopup'),
    to: z.string(),
    locale: localeSchema,
    data: z.object({
      name: z.string().nullable(),
      outcome: z.enum(AUTO_TOPUP_OUTCOMES),
      last4: z.string(),
      remainingMb: z.number(),
      amountGB: z.number(),
      points: z.number(),
      monthlyCap: z.number(),
      appUrl: z.string().url(),
      settingsUrl: z.string().url(),
    }),
  }),
  /**
   * The receipt of a purchase whose eSIM was issued (docs/payments.md, "Receipts"): amounts and
   * dates raw, formatted here in the recipient's language; the ICCID already masked.
   */
  z.object({
    kind: z.literal('purchaseReceipt'),
    to: z.string(),
    locale: localeSchema,
    data: z.object({
      name: z.string().nullable(),
      amountGB: z.number(),
      validityDays: z.number(),
      country: z.string().length(2),
      amountMinor: z.number().int(),
      currency: z.enum(PRICE_CURRENCIES),
      paymentMethod: z.enum(PAYMENT_METHODS),
      paidAt: z.string().datetime(),
      iccidMasked: z.string(),
      reference: z.string(),
      supportEmail: z.string(),
      appUrl: z.string().url(),
    }),
  }),
  /** The buyer refunded a purchase themselves (docs/payments.md, "Refunds"); amount raw, formatted here. */
  z.object({
    kind: z.literal('selfRefund'),
    to: z.string(),
    locale: localeSchema,
    data: z.object({
      name: z.string().nullable(),
      amountGB: z.number(),
      amountMinor: z.number().int(),
      currency: z.enum(PRICE_CURRENCIES),
      paymentMethod: z.enum(PAYMENT_METHODS),
      reference: z.string(),
    }),
  }),
]);
export type EmailJob = z.infer<typeof emailJobSchema>;

/** The content id of the QR image inlined in the eSIM-ready email. */
export const ESIM_QR_CID = 'esim-qr@dados-gratis';

export function composeEmail(job: EmailJob): RenderedEmail {
  switch (job.kind) {
    case 'verificationCode': {
      const m = messages(job.locale, 'verificationCode');
      return renderEmail(job.locale, m.subject, job.data.name, [{ text: m.intro }, { code: job.data.code }, { text: m.expiry }, { text: m.ignore }], { code: job.data.code, minutes: job.data.minutes });
    }
    case 'existingAccount': {
      const m = messages(job.locale, 'existingAccount');
      return renderEmail(job.locale, m.subject, null, [{ text: m.intro }, { text: m.action }, { link: job.data.signInUrl }, { text: m.ignore }]);
    }
    case 'passwordReset': {
      const m = messages(job.locale, 'passwordReset');
      return renderEmail(job.locale, m.subject, job.data.name, [{ text: m.intro }, { text: m.action }, { link: job.data.resetUrl }, { text: m.ignore }]);
    }
    case 'passwordChanged': {
      const m = messages(job.locale, 'passwordChanged');
      return renderEmail(job.locale, m.subject, null, [{ text: m.intro }, { text: m.ignore }]);
    }
    case 'esimReady': {
      const m = messages(job.locale, 'esimReady');
      const email = renderEmail(
        job.locale,
        m.subject,
        job.data.name,
        [
          { text: m.intro },
          { text: m.scan },
          { image: ESIM_QR_CID, alt: job.data.lpaCode },
          { text: m.manual },
          { copy: job.data.lpaCode },
          { text: m.action },
          { link: job.data.appUrl },
          { text: m.note },
        ],
        { amountGB: job.data.amountGB },
      );
      return {
        ...email,
        attachments: [{ filename: 'esim-qr.png', contentType: 'image/png', cid: ESIM_QR_CID, content: Buffer.from(job.data.qrPngBase64, 'base64') }],
      };
    }
    case 'dataGifted': {
      const m = messages(job.locale, 'dataGifted');
      return renderEmail(job.locale, m.subject, job.data.name, [{ text: m.intro }, { text: m.action }, { link: job.data.claimUrl }], {
        amountGB: job.data.amountGB,
      });
    }
    case 'dataDelivered': {
      const m = messages(job.locale, 'dataDelivered');
      return renderEmail(job.locale, m.subject, job.data.name, [{ text: m.intro }, { text: m.action }, { link: job.data.appUrl }], {
        amountGB: job.data.amountGB,
        iccid: job.data.iccid,
      });
    }
    case 'pointsReturned': {
      const m = messages(job.locale, 'pointsReturned');
      return renderEmail(job.locale, m.subject, job.data.name, [{ text: m.intro }, { text: m.action }, { link: job.data.appUrl }], {
        amountGB: job.data.amountGB,
        points: job.data.points,
      });
    }
    case 'giftReturned': {
      const m = messages(job.locale, 'giftReturned');
      return renderEmail(job.locale, m.subject, job.data.name, [{ text: m.intro }, { text: m.action }, { link: job.data.appUrl }], {
        amountGB: job.data.amountGB,
      });
    }
    case 'purchaseRefunded': {
      const m = messages(job.locale, 'purchaseRefunded');
      return renderEmail(job.locale, m.subject, job.data.name, [{ text: m.intro }, { text: m.note }], { amountGB: job.data.amountGB, amount: job.data.amount });
    }
    case 'dataLow': {
      const m = messages(job.locale, 'dataLow');
      const { last4, remainingMb, usedPercent, settingsUrl } = job.data;
      return renderEmail(job.locale, m.subject, job.data.name, [{ text: m.intro }, { text: m.action }, { link: job.data.appUrl }, { text: m.why }], {
        last4,
        remainingMb,
        usedPercent,
        settingsUrl,
      });
    }
    case 'marketingDigest': {
      const m = messages(job.locale, 'marketingDigest');
      const { offersUrl, settingsUrl, unsubscribeUrl, unsubscribePageUrl } = job.data;
      const blocks = [{ text: m.intro }, { text: m.action }, { link: offersUrl }, { text: m.why }, { text: m.unsubscribe }, { link: unsubscribePageUrl }];
      const rendered = renderEmail(job.locale, m.subject, job.data.name, blocks, {
        settingsUrl,
      });
      // One-click unsubscribe (RFC 8058): the mail client offers it and POSTs to the URL, no sign-in.
      return { ...rendered, headers: { 'List-Unsubscribe': `<${unsubscribeUrl}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' } };
    }
    case 'autoTopup': {
      const m = messages(job.locale, 'autoTopup');
      const { outcome, ...vars } = job.data;
      const subject = outcome === 'requested' ? m.subjectRequested : m.subjectRefused;
      const intro = outcome === 'requested' ? m.requested : outcome === 'no_points' ? m.noPoints : m.capped;
      return renderEmail(job.locale, subject, job.data.name, [{ text: intro }, { text: m.action }, { link: job.data.appUrl }, { text: m.why }], {
        last4: vars.last4,
        remainingMb: vars.remainingMb,
        amountGB: vars.amountGB,
        points: vars.points,
        monthlyCap: vars.monthlyCap,
        settingsUrl: vars.settingsUrl,
      });
    }
    case 'purchaseReceipt': {
      const m = messages(job.locale, 'purchaseReceipt');
      const d = job.data;
      const vars = {
        amountGB: d.amountGB,
        days: d.validityDays,
        country: new Intl.DisplayNames([job.locale], { type: 'region' }).of(d.country) ?? d.country,
        amount: new Intl.NumberFormat(job.locale, { style: 'currency', currency: d.currency }).format(d.amountMinor / 100),
        currency: d.currency,
        // The buyer's time zone is not known: the receipt says UTC, and says so.
        date: new Intl.DateTimeFormat(job.locale, { dateStyle: 'long', timeStyle: 'long', timeZone: 'UTC' }).format(new Date(d.paidAt)),
        iccid: d.iccidMasked,
        reference: d.reference,
        supportEmail: d.supportEmail,
      };
      return renderEmail(
        job.locale,
        m.subject,
        d.name,
        [
          { text: m.intro },
          { text: m.plan },
          { text: m.price },
          { text: d.paymentMethod === 'pix' ? m.paidByPix : m.paidByCard },
          { text: m.date },
          { text: m.iccid },
          { text: m.reference },
          { text: m.help },
          { link: d.appUrl },
        ],
        vars,
      );
    }
    case 'selfRefund': {
      const m = messages(job.locale, 'selfRefund');
      const d = job.data;
      const amount = new Intl.NumberFormat(job.locale, { style: 'currency', currency: d.currency }).format(d.amountMinor / 100);
      return renderEmail(job.locale, m.subject, d.name, [{ text: m.intro }, { text: d.paymentMethod === 'pix' ? m.pixNote : m.cardNote }, { text: m.line }, { text: m.reference }], {
        amountGB: d.amountGB,
        amount,
        reference: d.reference,
      });
    }
    case 'emailChanged': {
      const m = messages(job.locale, 'emailChanged');
      return renderEmail(job.locale, m.subject, null, [{ text: m.intro }, { text: m.ignore }], { email: job.data.newEmail });
    }
  }
}
