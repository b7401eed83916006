/** The package ships its list (a JSON array of domains) without types. */
declare module 'disposable-email-domains' {
  const domains: readonly string[];
  export default domains;
}
