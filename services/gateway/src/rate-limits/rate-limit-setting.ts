import { z } from 'zod';

export interface RateLimitSetting {
  points: number;
  seconds: number;
}

/** An environment value "<attempts>/<seconds>", e.g. "10/900": ten attempts per 15 minutes. */
export const rateLimitSetting = (defaultValue: `${number}/${number}`) =>
  z
    .string()
    .regex(/^[1-9]\d*\/[1-9]\d*$/, 'expected "<attempts>/<seconds>", e.g. "10/900"')
    .default(defaultValue)
    .transform((v): RateLimitSetting => {
      const [points, seconds] = v.split('/').map(Number);
      return { points, seconds };
    });
