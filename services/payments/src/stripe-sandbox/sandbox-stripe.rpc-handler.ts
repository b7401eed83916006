import { Controller } from '@nestjs/common';
import { PaymentsRpc, ProviderAnswer, RpcRequest } from '@esim/contracts';
import { RpcHandler } from '@esim/platform';
import { StripeEmulatorService } from './stripe-emulator.service';

/**
 * The browser's publishable-key calls to the Stripe emulator (retrieve an intent by its client
 * secret, confirm it with a test card), relayed by the gateway from PUBLIC_URL/sandbox/stripe.
 * Only publishable keys are accepted on this path: the secret-key API never faces the public edge.
 */
@Controller()
export class SandboxStripeRpcHandler {
  constructor(private readonly emulator: StripeEmulatorService) {}

  @RpcHandler(PaymentsRpc.sandboxStripe)
  async relay(req: RpcRequest<typeof PaymentsRpc.sandboxStripe>): Promise<ProviderAnswer> {
    const answer = await this.emulator.handle({ ...req, idempotencyKey: null, via: 'browser' });
    return { httpStatus: answer.httpStatus, body: answer.body };
  }
}
