/** Brand words a browser or a person may put in front of a model, and the maker each names. */
const BRAND_ALIASES: Readonly<Record<string, string>> = {
  apple: 'apple',
  iphone: 'apple',
  google: 'google',
  pixel: 'google',
  samsung: 'samsung',
  galaxy: 'samsung',
  motorola: 'motorola',
  moto: 'motorola',
  lenovo: 'motorola',
  xiaomi: 'xiaomi',
  redmi: 'xiaomi',
  poco: 'xiaomi',
};

/** Removed from the front of a model before a second try ("Samsung Galaxy S20" → "Galaxy S20"). */
const MAKER_PREFIXES = ['samsung', 'apple', 'google', 'motorola', 'xiaomi'];

/**
 * How a phone model is compared: browsers and people write the same phone as "SM-G981B",
 * "sm-g981b/ds", "Galaxy S20+", "galaxy s20 plus", "moto g(8)" or "Moto G8". A key is the text in
 * lower case with "+" read as "plus" and everything but letters and digits dropped; a Samsung
 * code also has a key without its region suffix (SM-G981B → smg981), the part that names the phone.
 */
export const DeviceKey = {
  model(value: string): string {
    return value
      .normalize('NFKD')
      .toLowerCase()
      .replace(/\+/g, 'plus')
      .replace(/[^a-z0-9]/g, '');
  },

  /** The keys a reported model is looked up by, most exact first. */
  candidates(value: string): string[] {
    const key = DeviceKey.model(value);
    const keys = [key];
    const samsung = /^(sm[a-z]\d{3})[a-z0-9]*$/.exec(key);
    if (samsung && samsung[1] !== key) keys.push(samsung[1]);
    const maker = MAKER_PREFIXES.find((prefix) => key.startsWith(prefix) && key.length > prefix.length);
    if (maker) keys.push(key.slice(maker.length));
    return keys;
  },

  /** The maker a brand names ("Redmi" → xiaomi), or its own key when it is none of the known ones. */
  brand(value: string): string {
    const key = DeviceKey.model(value);
    return BRAND_ALIASES[key] ?? key;
  },
};
