import { Controller } from '@nestjs/common';
import { CreditClaimAdminRpc, CreditClaimDecision, CreditClaimRequest, CreditClaimRpc, RpcMeta, RpcRequest, RpcResponse } from '@esim/contracts';
import { actingUserId, RpcHandler } from '@esim/platform';
import { CreditClaims } from './credit-claims.service';

/** The request was parsed by its schema (RpcHandler), so its defaults and trims apply. The acting user's claims; the operator's list and decisions (admin RPCs: the RPC server checks the caller). */
@Controller()
export class CreditClaimsRpcHandler {
  constructor(private readonly claims: CreditClaims) {}

  @RpcHandler(CreditClaimRpc.file)
  file(request: RpcRequest<typeof CreditClaimRpc.file>, meta: RpcMeta): Promise<RpcResponse<typeof CreditClaimRpc.file>> {
    return this.claims.file(actingUserId(meta), request as CreditClaimRequest & { wallUserId: string });
  }

  @RpcHandler(CreditClaimRpc.list)
  async list(_: RpcRequest<typeof CreditClaimRpc.list>, meta: RpcMeta): Promise<RpcResponse<typeof CreditClaimRpc.list>> {
    return { claims: await this.claims.listFor(actingUserId(meta)) };
  }

  @RpcHandler(CreditClaimAdminRpc.listOpen)
  async listOpen({ limit }: RpcRequest<typeof CreditClaimAdminRpc.listOpen>): Promise<RpcResponse<typeof CreditClaimAdminRpc.listOpen>> {
    return { claims: await this.claims.listOpen(limit) };
  }

  @RpcHandler(CreditClaimAdminRpc.decide)
  decide(request: RpcRequest<typeof CreditClaimAdminRpc.decide>, meta: RpcMeta): Promise<RpcResponse<typeof CreditClaimAdminRpc.decide>> {
    const { claimId, ...decision } = CreditClaimAdminRpc.decide.request.parse(request);
    return this.claims.decide(claimId, actingUserId(meta), decision as CreditClaimDecision);
  }
}
