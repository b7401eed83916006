/**
 * The product's one name: the app, page titles, the installable app's manifest, legal pages and
 * every email (sender name, heading, signature). It is a proper name, so it is never translated;
 * a tagline shown beside it is. Changing it here changes it everywhere.
 */
export const BRAND_NAME = 'Dados Grátis';
