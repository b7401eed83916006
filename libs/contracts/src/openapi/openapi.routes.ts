import { z } from 'zod';
import { defineRoute } from './define-route';

/** The reference itself, served by the gateway outside production (404 there). */
export const OpenApiRoutes = {
  page: defineRoute({
    method: 'GET',
    path: '/api/docs',
    reasons: ['not_found'],
    tag: 'Reference',
    auth: 'public',
    summary: 'This reference as a page (development only)',
    response: z.string().describe('HTML'),
    responseType: 'text/html',
    errors: { 404: 'In production.' },
  }),
  document: defineRoute({
    method: 'GET',
    path: '/api/docs/openapi.json',
    reasons: ['not_found'],
    tag: 'Reference',
    auth: 'public',
    summary: 'This reference as an OpenAPI 3.1 document (development only)',
    response: z.record(z.string(), z.unknown()).describe('The OpenAPI document (docs/openapi.json)'),
    errors: { 404: 'In production.' },
  }),
};
