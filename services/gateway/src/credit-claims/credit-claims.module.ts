import { Module } from '@nestjs/common';
import { CreditClaimsController } from './credit-claims.controller';

/** /api/credit-claims (the operator's side is in the admin module). */
@Module({
  controllers: [CreditClaimsController],
})
export class CreditClaimsModule {}
