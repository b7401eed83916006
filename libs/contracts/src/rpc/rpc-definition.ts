import { z } from 'zod';

/**
 * What travels beside every RPC request: the correlation id and the acting user (the signed-in
 * user the gateway acts for). The acting user always travels here, never in the request; a
 * `userId` in a request names the subject of the call (whose balance an admin reads), which
 * services authorise themselves.
 */
export const rpcMetaSchema = z.object({
  correlationId: z.string(),
  userId: z.string().uuid().optional(),
});
export type RpcMeta = z.infer<typeof rpcMetaSchema>;

export interface RpcDefinition<Req extends z.ZodType = z.ZodType, Res extends z.ZodType = z.ZodType> {
  service: string;
  /** `<service>.<name>`: the Nest message pattern. */
  pattern: string;
  request: Req;
  response: Res;
}
export type RpcRequest<D extends RpcDefinition> = z.input<D['request']>;
export type RpcResponse<D extends RpcDefinition> = z.infer<D['response']>;

/** Declares a request/reply call answered by `service`. */
export function defineRpc<Req extends z.ZodType, Res extends z.ZodType>(service: string, name: string, request: Req, response: Res): RpcDefinition<Req, Res> {
  return { service, pattern: `${service}.${name}`, request, response };
}
