/** The service's own validated configuration object (platform variables plus its own). */
export const CONFIG = Symbol('CONFIG');
export const SERVICE_NAME = Symbol('SERVICE_NAME');
/** The service's declared wire surface (a ServicePort from libs/contracts). */
export const SERVICE_PORT = Symbol('SERVICE_PORT');
/** The platform's Redis connection in a process without a database (its inbox). */
export const PLATFORM_REDIS = Symbol('PLATFORM_REDIS');
