import disposableDomains from 'disposable-email-domains';

/** The maintained list of disposable email domains (the `disposable-email-domains` package). */
const DISPOSABLE = new Set<string>(disposableDomains);
export const isDisposableEmail = (email: string): boolean => DISPOSABLE.has(email.slice(email.lastIndexOf('@') + 1).toLowerCase());
