import { BlockList, isIP } from 'node:net';
import { OFFERWALL_IDS, OfferwallId } from '@esim/contracts';
import { ConfigError, plainIpAddress } from '@esim/platform';
import type { WebhooksConfig } from '../config';
import { type Credentials, requiredAllowList } from '../postbacks/providers/offerwall-provider';
import { AnyOfferwallProvider, OFFERWALL_PROVIDERS } from '../postbacks/providers';
import { sandboxCredentials } from './sandbox-credentials';

/** An enabled wall: live with its own credentials, or emulated locally with the sandbox ones. */
export interface Wall {
  provider: AnyOfferwallProvider;
  sandbox: boolean;
  credentials: Credentials;
  /** Source addresses allowed to post back; null when any may. */
  allowedIps: BlockList | null;
}

/** Why a wall is off, for the start-up log. */
export interface DisabledWall {
  id: OfferwallId;
  reason: string;
}

function allowList(entries: string[], variable: string): BlockList | null {
  if (entries.length === 0) return null;
  const list = new BlockList();
  for (const entry of entries) {
    const [address, prefix] = entry.split('/');
    const family = isIP(address);
    if (family === 0 || (prefix !== undefined && !/^\d{1,3}$/.test(prefix)))
      throw new ConfigError([`${variable}: "${entry}" is not an IP address or CIDR range`]);
    const type = family === 6 ? 'ipv6' : 'ipv4';
    if (prefix === undefined) list.addAddress(address, type);
    else list.addSubnet(address, Number(prefix), type);
  }
  return list;
}

/**
 * Which walls this deployment offers, decided once at start-up. A wall with all its credentials
 * set is live; with none set it is emulated when the sandbox is allowed (OFFERWALLS_SANDBOX, and
 * never in production unless ALLOW_SANDBOX_IN_PRODUCTION), else disabled. Some but not all of a
 * wall's credentials is a configuration error that names the missing variables.
 */
export class OfferwallSettings {
  private constructor(
    private readonly walls: ReadonlyMap<OfferwallId, Wall>,
    readonly disabled: readonly DisabledWall[],
  ) {}

  static fromConfig(config: WebhooksConfig): OfferwallSettings {
    const sandboxAllowed = config.OFFERWALLS_SANDBOX && (config.NODE_ENV !== 'production' || config.ALLOW_SANDBOX_IN_PRODUCTION);
    const walls = new Map<OfferwallId, Wall>();
    const disabled: DisabledWall[] = [];
    const problems: string[] = [];
    for (const id of OFFERWALL_IDS) {
      const provider = OFFERWALL_PROVIDERS[id];
      const variables = Object.entries(provider.credentials) as Array<[keyof Credentials, keyof WebhooksConfig]>;
      const missing = variables.filter(([, variable]) => !config[variable]).map(([, variable]) => variable);
      if (missing.length > 0 && missing.length < variables.length) {
        problems.push(...missing.map((variable) => `${variable} is required: the other ${provider.name} credentials are set`));
      } else if (missing.length === 0) {
        const credentials = Object.fromEntries(variables.map(([name, variable]) => [name, String(config[variable])])) as Credentials;
        const allowedIps = allowList(config[provider.allowedIps] as string[], provider.allowedIps);
        const why = requiredAllowList(provider.signatureCovers);
        if (!allowedIps && why) problems.push(`${provider.allowedIps} is required for a live ${provider.name} wall: ${why}`);
        walls.set(id, { provider, sandbox: false, credentials, allowedIps });
      } else if (sandboxAllowed) {
        walls.set(id, { provider, sandbox: true, credentials: sandboxCredentials(id), allowedIps: null });
      } else {
        disabled.push({
          id,
          reason: config.OFFERWALLS_SANDBOX
            ? 'no credentials, and the sandbox is refused in production'
            : 'no credentials, and OFFERWALLS_SANDBOX is off',
        });
      }
    }
    if (problems.length > 0) throw new ConfigError(problems);
    return new OfferwallSettings(walls, disabled);
  }

  /** The wall, or undefined when it is disabled. */
  get(id: OfferwallId): Wall | undefined {
    return this.walls.get(id);
  }

  enabled(): Wall[] {
    return [...this.walls.values()];
  }
}

/** True when the allow-list (if any) admits this source address. */
export function ipAllowed(wall: Wall, sourceIp: string): boolean {
  if (!wall.allowedIps) return true;
  const address = plainIpAddress(sourceIp);
  const family = isIP(address);
  return family !== 0 && wall.allowedIps.check(address, family === 6 ? 'ipv6' : 'ipv4');
}
