/**
 * Locale completeness: every interface language of the catalogue has a file with exactly the keys
 * of pt.json (the default; plurals in the language's own forms), the same {{placeholders}} and
 * <tags>, and no English left behind.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { BRAND_NAME, DEFAULT_LOCALE, LOCALES } from '@esim/contracts';

type Tree = { [key: string]: string | Tree };

const LOCALES_DIR = path.join(__dirname, 'locales');

/**
 * Words that are the same in every language: brands, product names, technical terms and units.
 * They are removed before comparing a value with English.
 */
const UNTRANSLATABLE_TOKENS = ['KeepGo', 'eSIMs', 'eSIM', 'ICCID', 'LPA', 'QR', 'iPhone', 'iOS', 'Passkeys', 'Passkey', 'Android', 'Samsung', 'Galaxy', 'Google', 'Pixel', 'XS', 'S20', 'MB', 'GB', 'USD', 'OK', 'Pix'];

/**
 * Keys whose value may equal English in some languages, with the reason. Keep this list short:
 * everything else must be translated.
 */
const SAME_AS_ENGLISH_ALLOWED: Record<string, { locales: readonly string[] | '*'; reason: string }> = {
  'plans.pro': { locales: '*', reason: 'plan tier name used as a brand' },
  'plans.popular': { locales: ['pt', 'es', 'ms'], reason: 'the tier name is the same word in these languages' },
  'auth.fields.password': { locales: ['it', 'fil'], reason: '"password" is the standard word in Italian and Filipino interfaces' },
};

function readLocale(locale: string): Tree {
  const file = path.join(LOCALES_DIR, `${locale}.json`);
  return JSON.parse(fs.readFileSync(file, 'utf8')) as Tree;
}

function flatten(tree: Tree, prefix = '', out: Record<string, string> = {}): Record<string, string> {
  for (const [key, value] of Object.entries(tree)) {
    const full = prefix ? `${prefix}.${key}` : key;
    if (typeof value === 'string') out[full] = value;
    else if (value && typeof value === 'object' && !Array.isArray(value)) flatten(value, full, out);
    else out[full] = `__INVALID_${typeof value}__`;
  }
  return out;
}

const placeholders = (value: string) => [...value.matchAll(/\{\{\s*([\w.]+)\s*(?:,[^}]*)?\}\}/g)].map((m) => m[1]).sort();
const tags = (value: string) => [...value.matchAll(/<\/?([a-zA-Z][\w-]*)\s*>/g)].map((m) => m[0].replace(/\s/g, '')).sort();

/** What is left of a value once placeholders, tags, brands, numbers and punctuation are gone. */
function translatableText(value: string): string {
  let text = value.replace(/\{\{[^}]*\}\}/g, ' ').replace(/<\/?[a-zA-Z][\w-]*\s*>/g, ' ');
  for (const token of UNTRANSLATABLE_TOKENS) text = text.split(token).join(' ');
  return text.replace(/[\p{N}\p{P}\p{S}\s]+/gu, '');
}

const pt = flatten(readLocale(DEFAULT_LOCALE));
const en = flatten(readLocale('en'));
const ptKeys = Object.keys(pt).sort();

/**
 * Plurals are i18next's (`t(key, { count })`): `key_one`, `key_few`, `key_other`… Each language has
 * the forms its own rules pick for whole numbers, plus `_other`, whatever forms pt.json has.
 */
const PLURAL_SUFFIX = /_(zero|one|two|few|many|other)$/;
const pluralBases = new Set(ptKeys.filter((k) => PLURAL_SUFFIX.test(k)).map((k) => k.replace(PLURAL_SUFFIX, '')));
const baseOf = (key: string) => (PLURAL_SUFFIX.test(key) && pluralBases.has(key.replace(PLURAL_SUFFIX, '')) ? key.replace(PLURAL_SUFFIX, '') : null);

function pluralForms(locale: string): string[] {
  const rules = new Intl.PluralRules(locale);
  const forms = new Set(['other']);
  for (let n = 0; n <= 1000; n++) forms.add(rules.select(n));
  return [...forms].sort();
}

/** The keys a locale must have: pt.json's, with each plural in the locale's own forms. */
function expectedKeys(locale: string): string[] {
  const keys = ptKeys.filter((k) => !baseOf(k));
  for (const base of pluralBases) for (const form of pluralForms(locale)) keys.push(`${base}_${form}`);
  return keys.sort();
}

/** pt.json's (or en.json's) text for a key of another locale: a plural form pt lacks compares with `_other`. */
const reference = (messages: Record<string, string>, key: string) => messages[key] ?? (baseOf(key) ? messages[`${baseOf(key)}_other`] : undefined);

describe('interface locales', () => {
  it('has a file for every catalogue locale and no other', () => {
    const files = fs
      .readdirSync(LOCALES_DIR)
      .filter((f) => f.endsWith('.json'))
      .map((f) => f.replace(/\.json$/, ''))
      .sort();
    expect(files).toEqual([...LOCALES].sort());
  });

  it('pt (the default) has a sizeable, well-formed key set', () => {
    expect(ptKeys.length).toBeGreaterThan(200);
    for (const [key, value] of Object.entries(pt)) {
      expect({ key, ok: typeof value === 'string' && value.trim().length > 0 }).toEqual({ key, ok: true });
    }
  });

  describe.each([...LOCALES])('%s', (locale) => {
    // A missing file fails the first test above and every key check here, without crashing the suite.
    const messages = fs.existsSync(path.join(LOCALES_DIR, `${locale}.json`)) ? flatten(readLocale(locale)) : {};

    it('has exactly the keys of pt.json (plurals in its own forms)', () => {
      const keys = Object.keys(messages);
      const wanted = expectedKeys(locale);
      const missing = wanted.filter((k) => !(k in messages));
      const extra = keys.filter((k) => !wanted.includes(k));
      expect({ locale, missing, extra }).toEqual({ locale, missing: [], extra: [] });
    });

    it('has no empty or non-string values', () => {
      const bad = Object.entries(messages)
        .filter(([, v]) => typeof v !== 'string' || v.trim() === '' || v.startsWith('__INVALID_'))
        .map(([k]) => k);
      expect({ locale, bad }).toEqual({ locale, bad: [] });
    });

    it('keeps the placeholders and tags of pt.json', () => {
      const mismatched = Object.keys(messages)
        .filter((k) => reference(pt, k) !== undefined)
        .filter((k) => placeholders(messages[k]).join() !== placeholders(reference(pt, k)!).join() || tags(messages[k]).join() !== tags(reference(pt, k)!).join());
      expect({ locale, mismatched }).toEqual({ locale, mismatched: [] });
    });

    if (locale !== 'en') {
      it('leaves no value identical to English', () => {
        const untranslated = Object.keys(messages)
          .filter((k) => reference(en, k) !== undefined)
          .filter((k) => translatableText(reference(en, k)!) !== '' && messages[k].trim() === reference(en, k)!.trim())
          .filter((k) => {
            const allowed = SAME_AS_ENGLISH_ALLOWED[k];
            return !allowed || (allowed.locales !== '*' && !allowed.locales.includes(locale));
          });
        expect({ locale, untranslated }).toEqual({ locale, untranslated: [] });
      });
    }
  });
});

/**
 * One brand: the name is BRAND_NAME (libs/contracts catalogue/brand.ts), passed in as {{brand}} and
 * never written, or translated, in a locale file. Older names must not come back as a brand.
 */
describe('brand name', () => {
  const FORMER_NAMES = /eSIM Rewards|Free Data/;

  it.each(LOCALES)('%s names no brand itself (only {{brand}})', (locale) => {
    const text = fs.readFileSync(path.join(LOCALES_DIR, `${locale}.json`), 'utf8');
    expect(text).not.toMatch(FORMER_NAMES);
    expect(text).not.toContain(BRAND_NAME);
  });

  it('index.html, shown before the app starts, carries the same name', () => {
    const html = fs.readFileSync(path.join(__dirname, '../../index.html'), 'utf8');
    expect(html).not.toMatch(FORMER_NAMES);
    expect(html).toContain(`<title>${BRAND_NAME}</title>`);
    expect(html).toContain(`<meta property="og:site_name" content="${BRAND_NAME}" />`);
  });
});
