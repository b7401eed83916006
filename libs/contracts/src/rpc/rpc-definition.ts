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
  /**
   * Only an admin may call it: the answering service's RPC server refuses any other acting user
   * with 403 (401 without one) before the handler runs, whoever sent the request
   * (docs/decisions.md, "Services check their caller").
   */
  admin: boolean;
}
export type RpcRequest<D extends RpcDefinition> = z.input<D['request']>;
export type RpcResponse<D extends RpcDefinition> = z.infer<D['response']>;

/** Declares a request/reply call answered by `service`; `admin: true` for a call only admins may make. */
export function defineRpc<Req extends z.ZodType, Res extends z.ZodType>(
  service: string,
  name: string,
  request: Req,
  response: Res,
  opts: { admin?: boolean } = {},
): RpcDefinition<Req, Res> {
  return { service, pattern: `${service}.${name}`, request, response, admin: opts.admin ?? false };
}

/** Declares a call only an admin may make (see RpcDefinition.admin). */
export function defineAdminRpc<Req extends z.ZodType, Res extends z.ZodType>(service: string, name: string, request: Req, response: Res): RpcDefinition<Req, Res> {
  return defineRpc(service, name, request, response, { admin: true });
}
