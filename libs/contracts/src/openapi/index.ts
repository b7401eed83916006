export * from './collect-routes';
export * from './define-route';
export * from './openapi-document';
export * from './openapi.routes';
