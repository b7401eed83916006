import { Controller } from '@nestjs/common';
import { NotificationsRpc, RpcMeta, RpcRequest, RpcResponse } from '@esim/contracts';
import { actingUserId, RpcHandler } from '@esim/platform';
import { SentEmails } from './sent-emails';

/** The emails sent to the acting user, newest first (what and when), for their data export. */
@Controller()
export class SentEmailsRpcHandler {
  constructor(private readonly sent: SentEmails) {}

  @RpcHandler(NotificationsRpc.listSentEmails)
  async list(_: RpcRequest<typeof NotificationsRpc.listSentEmails>, meta: RpcMeta): Promise<RpcResponse<typeof NotificationsRpc.listSentEmails>> {
    return { emails: await this.sent.listFor(actingUserId(meta)) };
  }
}
