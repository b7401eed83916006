import { Controller } from '@nestjs/common';
import { PostbackAnswer, PostbackDelivery, RewardsRpc } from '@esim/contracts';
import { RpcHandler } from '@esim/platform';
import { PostbackIngestion } from './postback-ingestion';

@Controller()
export class PostbacksRpcHandler {
  constructor(private readonly ingestion: PostbackIngestion) {}

  @RpcHandler(RewardsRpc.ingestPostback)
  ingest(delivery: PostbackDelivery): Promise<PostbackAnswer> {
    return this.ingestion.ingest(delivery);
  }
}
