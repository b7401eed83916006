/** The product name, declared once in libs/contracts (catalogue/brand.ts) for the app and the emails. */
export { BRAND_NAME } from '@esim/contracts';
