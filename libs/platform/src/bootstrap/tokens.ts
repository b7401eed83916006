/** The service's own validated configuration object (platform variables plus its own). */
export const CONFIG = Symbol('CONFIG');
export const SERVICE_NAME = Symbol('SERVICE_NAME');
