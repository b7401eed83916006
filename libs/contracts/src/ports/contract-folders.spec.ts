import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';

/** Every contract file under libs/contracts/src, with its folder (the first path segment). */
function contractFiles(dir: string, root = dir): { folder: string; file: string; source: string }[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return contractFiles(path, root);
    if (!entry.name.endsWith('.ts') || entry.name.endsWith('.spec.ts')) return [];
    const file = relative(root, path);
    return [{ folder: file.split(sep)[0], file, source: readFileSync(path, 'utf8') }];
  });
}

describe('contract folders', () => {
  // Declared by producer: an event in the folder of the service that publishes it, an RPC in the
  // folder of the service that answers it, so a flow's contracts are found by who owns them.
  it('declares every event and RPC in the folder of the service that publishes or answers it', () => {
    const misplaced = contractFiles(join(__dirname, '..')).flatMap(({ folder, file, source }) =>
      [...source.matchAll(/\bdefine(?:Event|Rpc|AdminRpc)\(\s*'([a-z-]+)',\s*'([a-z0-9-]+)'/g)]
        .filter(([, service]) => service !== folder)
        .map(([, service, name]) => `${service}.${name} in ${file}`),
    );
    expect(misplaced).toEqual([]);
  });
});
