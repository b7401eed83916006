import { z } from 'zod';
import { localeSchema } from '@esim/contracts';
import { messages, RenderedEmail, renderEmail } from './render-email';

/** Every email the product sends, with the data each needs. Jobs carry this, validated on both ends. */
export const emailJobSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('verificationCode'), to: z.string(), locale: localeSchema, data: z.object({ name: z.string().nullable(), code: z.string(), minutes: z.number() }) }),
  z.object({ kind: z.literal('existingAccount'), to: z.string(), locale: localeSchema, data: z.object({ signInUrl: z.string().url() }) }),
  z.object({ kind: z.literal('passwordReset'), to: z.string(), locale: localeSchema, data: z.object({ name: z.string().nullable(), resetUrl: z.string().url() }) }),
  z.object({ kind: z.literal('passwordChanged'), to: z.string(), locale: localeSchema, data: z.object({}) }),
]);
export type EmailJob = z.infer<typeof emailJobSchema>;

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
  }
}
