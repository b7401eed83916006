import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import type { Request } from 'express';
import { idempotencyKeySchema } from '@esim/contracts';
import { validationError } from '@esim/platform';

/** The `Idempotency-Key` header the SPA makes once per submit: 400 when missing or malformed. */
export const IdempotencyKey = createParamDecorator((_: unknown, ctx: ExecutionContext): string => {
  const header = ctx.switchToHttp().getRequest<Request>().headers['idempotency-key'];
  const parsed = idempotencyKeySchema.safeParse(typeof header === 'string' ? header : undefined);
  if (!parsed.success) throw validationError(parsed.error.issues);
  return parsed.data;
});
