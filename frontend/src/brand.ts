/**
 * The product name shown in the interface, legal pages and titles. The spec does not name the
 * brand; this placeholder follows the repository name and is the single place to change it.
 */
export const BRAND_NAME = 'eSIM Rewards';
