import type { OfferwallId } from '@esim/contracts';
import type { Credentials } from '../postbacks/providers/offerwall-provider';

/**
 * The credentials of an emulated wall. They are public on purpose: the sandbox emulator signs with
 * them, and so can the benchmark and a developer's curl. A live wall never uses them.
 */
export function sandboxCredentials(id: OfferwallId): Credentials {
  return { appId: '1000', publisherId: '100', appKey: `sandbox-key-${id}`, secret: `sandbox-secret-${id}` };
}
