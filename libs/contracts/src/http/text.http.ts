import { z } from 'zod';

/**
 * NUL, and a UTF-16 surrogate half without its partner: Postgres refuses the first in `text` and
 * `jsonb` (a 500, or an outbox row that cannot be written), and the second has no UTF-8 form (it
 * would be stored as U+FFFD, silently changing what the user sent).
 */
// eslint-disable-next-line no-control-regex -- matching NUL is the point
const UNSTORABLE = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** Line breaks, tabs and the other control characters: never part of a name, and they forge email headers. */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;

export const UNSTORABLE_TEXT_MESSAGE = 'Please remove the characters that are not allowed';

type StringParams = Parameters<typeof z.string>[0];

/**
 * The base of every string field a client sends: what cannot be stored is refused first, with
 * the rest of the field's rules (trim, length, format) chained after it as on `z.string()`.
 */
export const text = (params?: StringParams) =>
  z.string(params).refine((v) => !UNSTORABLE.test(v), { message: UNSTORABLE_TEXT_MESSAGE, abort: true });

/** `text` that also refuses line breaks and other control characters (names, anything put in an email). */
export const singleLineText = (params?: StringParams, message = UNSTORABLE_TEXT_MESSAGE) =>
  text(params).refine((v) => !CONTROL.test(v), { message, abort: true });
