import { z } from 'zod';

/** The five offer walls (product-decisions.md, "Earning"); each id is also its postback path segment. */
export const OFFERWALL_IDS = ['rapidoreach', 'cpx', 'bitlabs', 'lootably', 'torox'] as const;
export type OfferwallId = (typeof OFFERWALL_IDS)[number];

export function isOfferwallId(value: unknown): value is OfferwallId {
  return typeof value === 'string' && (OFFERWALL_IDS as readonly string[]).includes(value);
}

/**
 * How the SPA shows a wall: an iframe at `url` (relative URLs are the local sandbox emulator), or
 * the provider's script tag at `scriptUrl` configured with `config` (CPX Research's survey widget:
 * `config` is its `general_config`; the page adds its own containers and styles).
 */
export const offerwallEmbedSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('iframe'), url: z.string() }),
  z.object({ kind: z.literal('script'), scriptUrl: z.string(), config: z.record(z.string(), z.unknown()) }),
]);
export type OfferwallEmbed = z.infer<typeof offerwallEmbedSchema>;

export const offerwallSchema = z.object({
  id: z.enum(OFFERWALL_IDS),
  name: z.string(),
  /** True when the wall is the local emulator (no credentials configured): the UI says so. */
  sandbox: z.boolean(),
  /** The user's id as this wall knows it (RapidoReach: `userId-appId-checksum`). */
  uid: z.string(),
  embed: offerwallEmbedSchema,
});
export type Offerwall = z.infer<typeof offerwallSchema>;

/** Only enabled walls are listed; a wall without credentials outside sandbox mode is absent. */
export const offerwallsResponseSchema = z.object({ walls: z.array(offerwallSchema) });
export type OfferwallsResponse = z.infer<typeof offerwallsResponseSchema>;
