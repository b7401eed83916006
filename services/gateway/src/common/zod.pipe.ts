import { PipeTransform } from '@nestjs/common';
import type { z } from 'zod';
import { validationError } from '@esim/platform';

/**
 * Validates a body (or query) with a contracts schema: unknown fields are dropped, and the first
 * problem becomes a 400 whose message is the spec's text for that field.
 */
export class ZodPipe<S extends z.ZodType> implements PipeTransform<unknown, z.infer<S>> {
  constructor(private readonly schema: S) {}

  transform(value: unknown): z.infer<S> {
    const result = this.schema.safeParse(value ?? {});
    if (!result.success) throw validationError(result.error.issues);
    return result.data;
  }
}
