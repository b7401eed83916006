import { readdirSync } from 'fs';
import { join } from 'path';
import { LOCALES } from '@esim/contracts';
import { EMAIL_MESSAGES } from './locales';
import en from './locales/en.json';

type Flat = Record<string, string>;

/** `{ a: { b: 'x' } }` → `{ 'a.b': 'x' }`; a non-string leaf is kept as its JSON so the string checks fail on it. */
function flatten(value: unknown, prefix = '', out: Flat = {}): Flat {
  if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
    for (const [k, v] of Object.entries(value)) flatten(v, prefix ? `${prefix}.${k}` : k, out);
  } else {
    out[prefix] = typeof value === 'string' ? value : JSON.stringify(value);
  }
  return out;
}

const placeholders = (s: string) => [...s.matchAll(/\{\{\s*(\w+)\s*\}\}/g)].map((m) => m[1]).sort();

/**
 * `locale.key` pairs whose translation may legitimately equal the English text.
 * Keep it empty unless a value is truly language-neutral (e.g. only a placeholder).
 */
const SAME_AS_ENGLISH_ALLOWED = new Set<string>([]);

const english = flatten(en);
const englishKeys = Object.keys(english).sort();

describe('email locales', () => {
  it('has one JSON file per supported locale and no other', () => {
    const files = readdirSync(join(__dirname, 'locales'))
      .filter((f) => f.endsWith('.json'))
      .map((f) => f.replace(/\.json$/, ''))
      .sort();
    expect(files).toEqual([...LOCALES].sort());
    expect(Object.keys(EMAIL_MESSAGES).sort()).toEqual([...LOCALES].sort());
  });

  describe.each(LOCALES)('%s', (locale) => {
    const messages = flatten(EMAIL_MESSAGES[locale]);

    it('has exactly the keys of en.json', () => {
      expect(Object.keys(messages).sort()).toEqual(englishKeys);
    });

    it('has no empty value', () => {
      const empty = Object.entries(messages).filter(([, v]) => typeof v !== 'string' || v.trim() === '');
      expect(empty).toEqual([]);
    });

    it('keeps every {{placeholder}} of English and adds none', () => {
      const mismatched = englishKeys
        .filter((k) => k in messages)
        .filter((k) => placeholders(messages[k]).join() !== placeholders(english[k]).join())
        .map((k) => ({ key: k, expected: placeholders(english[k]), got: placeholders(messages[k]) }));
      expect(mismatched).toEqual([]);
    });

    if (locale !== 'en') {
      it('translates every value (none equals English)', () => {
        const untranslated = englishKeys.filter((k) => messages[k] === english[k] && !SAME_AS_ENGLISH_ALLOWED.has(`${locale}.${k}`));
        expect(untranslated).toEqual([]);
      });
    }
  });

  it('names the brand only through {{brand}}, never as a translated name', () => {
    for (const locale of LOCALES) {
      expect(EMAIL_MESSAGES[locale].common.signature).toContain('{{brand}}');
      expect(EMAIL_MESSAGES[locale].common).not.toHaveProperty('brand');
      expect(JSON.stringify(EMAIL_MESSAGES[locale])).not.toMatch(/Free Data|eSIM Rewards/);
    }
  });
});
