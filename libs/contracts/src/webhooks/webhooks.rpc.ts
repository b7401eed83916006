import { z } from 'zod';
import { defineRpc } from '../rpc/rpc-definition';
import { offerwallsResponseSchema } from './offerwalls';

/** The ingestion service owns the walls' credentials, so it also says how each wall is embedded. */
export const WebhooksRpc = {
  /** The walls enabled for the acting user (meta.userId), with the iframe URL or script configuration of each. */
  listOfferwalls: defineRpc('webhooks', 'list-offerwalls', z.object({}), offerwallsResponseSchema),
} as const;
