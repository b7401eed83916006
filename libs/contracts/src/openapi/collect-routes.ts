import { HttpRoute, isHttpRoute } from './define-route';

/**
 * Every route declared in a module's exports: a `defineRoute(...)` exported itself, or inside an
 * exported group (`export const AuthRoutes = { register: defineRoute(...) }`, or an array). Fed
 * the whole `@esim/contracts` namespace, this is how a new contract file's routes reach the
 * reference without a list to keep up to date. Sorted by path, then method.
 */
export function collectRoutes(moduleExports: Readonly<Record<string, unknown>>): HttpRoute[] {
  const found = new Set<HttpRoute>();
  for (const value of Object.values(moduleExports)) {
    if (isHttpRoute(value)) found.add(value);
    else if (Array.isArray(value) || (typeof value === 'object' && value !== null && Object.getPrototypeOf(value) === Object.prototype)) {
      for (const inner of Object.values(value)) if (isHttpRoute(inner)) found.add(inner);
    }
  }
  const byKey = new Map<string, HttpRoute>();
  for (const route of found) {
    const key = `${route.method} ${route.path}`;
    if (byKey.has(key)) throw new Error(`${key} is declared twice`);
    byKey.set(key, route);
  }
  return [...byKey.values()].sort((a, b) => (a.path === b.path ? a.method.localeCompare(b.method) : a.path.localeCompare(b.path)));
}
