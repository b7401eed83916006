/** The sandboxes process's configuration (config.ts), for injection. */
export const SANDBOXES_CONFIG = Symbol('SANDBOXES_CONFIG');
