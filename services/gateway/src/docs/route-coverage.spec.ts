import fs from 'node:fs';
import path from 'node:path';
import { RequestMethod } from '@nestjs/common';
import { METHOD_METADATA, PATH_METADATA } from '@nestjs/common/constants';
import * as contracts from '@esim/contracts';

const services = path.resolve(__dirname, '../../..');

function controllerFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return controllerFiles(full);
    return entry.name.endsWith('.controller.ts') ? [full] : [];
  });
}

const joined = (...parts: string[]) => `/${parts.flatMap((p) => p.split('/')).filter(Boolean).join('/')}`;
const asOpenApi = (route: string) => route.replace(/:([A-Za-z0-9_]+)/g, '{$1}');

/**
 * The public routes the processes really answer, from Nest's own decorator metadata: the gateway's
 * controllers, and the webhooks service's (the gateway streams `/webhooks/*` to it).
 */
function servedRoutes(): string[] {
  const routes: string[] = [];
  for (const service of ['gateway', 'webhooks']) {
    for (const file of controllerFiles(path.join(services, service, 'src'))) {
      // eslint-disable-next-line @typescript-eslint/no-require-imports -- every controller file, found at run time
      for (const exported of Object.values(require(file) as Record<string, unknown>)) {
        if (typeof exported !== 'function') continue;
        const base = Reflect.getMetadata(PATH_METADATA, exported) as string | undefined;
        if (base === undefined) continue;
        const proto = (exported as { prototype: Record<string, unknown> }).prototype;
        for (const name of Object.getOwnPropertyNames(proto)) {
          const handler = proto[name];
          if (typeof handler !== 'function' || name === 'constructor') continue;
          const method = Reflect.getMetadata(METHOD_METADATA, handler) as RequestMethod | undefined;
          const sub = Reflect.getMetadata(PATH_METADATA, handler) as string | string[] | undefined;
          if (method === undefined || sub === undefined) continue;
          for (const p of Array.isArray(sub) ? sub : [sub]) routes.push(`${RequestMethod[method]} ${asOpenApi(joined(base, p))}`);
        }
      }
    }
  }
  return routes.filter((r) => / \/(api|webhooks)(\/|$)/.test(r)).sort();
}

describe('the API reference and the controllers', () => {
  it('declares exactly the /api and /webhooks routes the gateway and the webhooks service answer', () => {
    const served = servedRoutes();
    const declared = contracts
      .collectRoutes(contracts as unknown as Record<string, unknown>)
      .map((r) => `${r.method} ${r.path}`)
      .sort();
    // Both directions: a new controller route needs its defineRoute in libs/contracts, and a
    // declared route must exist.
    expect({ undeclared: served.filter((r) => !declared.includes(r)), notServed: declared.filter((r) => !served.includes(r)) }).toEqual({
      undeclared: [],
      notServed: [],
    });
    expect(served.length).toBeGreaterThanOrEqual(30);
  });
});
