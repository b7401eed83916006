import escapeHtml from 'escape-html';
import { BRAND_NAME, DEFAULT_LOCALE, Locale } from '@esim/contracts';
import { EMAIL_MESSAGES, EmailMessages } from './locales';

type TemplateName = Exclude<keyof EmailMessages, 'common'>;
type Vars = Record<string, string | number>;

export interface RenderedEmail {
  subject: string;
  text: string;
  html: string;
  language: Locale;
  /** Inline images the HTML shows by `cid:` (a QR code). */
  attachments?: MailAttachment[];
  /** Headers of its own (a promotional email's List-Unsubscribe). */
  headers?: Record<string, string>;
}

export interface MailAttachment {
  filename: string;
  content: Buffer;
  contentType: string;
  /** Referenced from the HTML as `cid:<cid>`. */
  cid: string;
}

/**
 * A paragraph of the email: plain text, or a highlighted value (a code), or a link; or a long
 * value to copy (an activation code), or an inline image attached by `cid` (a QR code).
 */
export type Block = { text: string } | { code: string } | { link: string; label?: string } | { copy: string } | { image: string; alt: string };

export const interpolate = (s: string, vars: Vars): string => s.replace(/\{\{(\w+)\}\}/g, (_, k: string) => String(vars[k] ?? ''));

/** The messages of one template in the user's language (Portuguese when the language is unknown). */
export function messages<T extends TemplateName>(locale: Locale, template: T): EmailMessages[T] & { common: EmailMessages['common'] } {
  const m = EMAIL_MESSAGES[locale] ?? EMAIL_MESSAGES[DEFAULT_LOCALE];
  return { ...m[template], common: m.common };
}

/** Lays out an email in plain text and HTML from translated blocks; every value is escaped. */
export function renderEmail(locale: Locale, subject: string, name: string | null, blocks: Block[], vars: Vars = {}): RenderedEmail {
  const { common } = messages(locale, 'verificationCode');
  const greeting = name ? interpolate(common.greeting, { name }) : common.greetingNoName;
  const textBlocks = blocks.map((b) =>
    'text' in b ? interpolate(b.text, vars) : 'code' in b ? `    ${b.code}` : 'copy' in b ? `    ${b.copy}` : 'image' in b ? `[${b.alt}]` : b.link,
  );
  const htmlBlocks = blocks.map((b) =>
    'text' in b
      ? `<p style="margin:0 0 16px">${escapeHtml(interpolate(b.text, vars))}</p>`
      : 'code' in b
        ? `<p style="margin:0 0 16px;font-size:32px;font-weight:700;letter-spacing:8px;font-family:monospace">${escapeHtml(b.code)}</p>`
        : 'copy' in b
          ? `<p dir="ltr" style="margin:0 0 16px;padding:8px;background:#f3f3f3;font-family:monospace;font-size:14px;word-break:break-all">${escapeHtml(b.copy)}</p>`
          : 'image' in b
            ? `<p style="margin:0 0 16px"><img src="cid:${escapeHtml(b.image)}" alt="${escapeHtml(b.alt)}" width="240" height="240" style="display:block"></p>`
            : `<p style="margin:0 0 16px"><a href="${escapeHtml(b.link)}" style="color:#0b63ce">${escapeHtml(b.label ?? b.link)}</a></p>`,
  );
  // The brand is a proper name (libs/contracts catalogue/brand.ts): the same in every language.
  const signature = interpolate(common.signature, { brand: BRAND_NAME });
  const footer = interpolate(common.footer, { brand: BRAND_NAME });
  const dir = locale === 'ur' ? 'rtl' : 'ltr';
  return {
    subject: interpolate(subject, vars),
    language: locale,
    text: [greeting, '', ...textBlocks.flatMap((t) => [t, '']), signature, '', '—', footer].join('\n'),
    html: `<!doctype html><html lang="${locale}" dir="${dir}"><body style="font-family:system-ui,sans-serif;color:#1a1a1a;max-width:560px;margin:0 auto;padding:24px">
<h1 style="font-size:20px">${escapeHtml(BRAND_NAME)}</h1><p style="margin:0 0 16px">${escapeHtml(greeting)}</p>${htmlBlocks.join('')}
<p style="margin:24px 0 0">${escapeHtml(signature)}</p><hr style="border:none;border-top:1px solid #ddd;margin:24px 0"><p style="font-size:12px;color:#555">${escapeHtml(footer)}</p></body></html>`,
  };
}
