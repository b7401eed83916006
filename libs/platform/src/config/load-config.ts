import { z } from 'zod';

export type Env = Record<string, string | undefined>;

/** Raised at start-up; the message names every variable that is missing or wrong. */
export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n  - ${problems.join('\n  - ')}`);
    this.name = 'ConfigError';
  }
}

/**
 * Reads configuration from environment variables through a zod object schema whose keys are the
 * variable names. Blank strings count as unset so that `FOO=` in an .env file means "default".
 */
export function loadConfig<S extends z.ZodObject>(schema: S, env: Env = process.env): z.infer<S> {
  const input: Record<string, string> = {};
  for (const key of Object.keys(schema.shape)) {
    const value = env[key];
    if (value !== undefined && value.trim() !== '') input[key] = value.trim();
  }
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const problems = result.error.issues.map((issue) => {
    const key = String(issue.path[0] ?? '?');
    return input[key] === undefined ? `${key} is required` : `${key}: ${issue.message}`;
  });
  throw new ConfigError(problems);
}

/** Coerces "true"/"false"/"1"/"0" into a boolean. */
export const envBoolean = (defaultValue: boolean) =>
  z
    .enum(['true', 'false', '1', '0', 'yes', 'no'])
    .default(defaultValue ? 'true' : 'false')
    .transform((v) => v === 'true' || v === '1' || v === 'yes');

export const envInt = (defaultValue: number, min = 0) => z.coerce.number().int().min(min).default(defaultValue);

/** A comma-separated list. */
export const envList = (defaultValue = '') =>
  z
    .string()
    .default(defaultValue)
    .transform((v) =>
      v
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean),
    );
