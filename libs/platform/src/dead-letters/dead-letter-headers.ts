import type { ConsumeMessage } from 'amqplib';

/**
 * Headers the event consumer puts on a message it moves to its dead-letter queue, so that an
 * operator sees why (the broker's own dead-lettering records only "delivery_limit").
 */
export const DEAD_LETTER_HEADERS = {
  reason: 'x-dead-letter-reason',
  error: 'x-dead-letter-error',
  deliveries: 'x-dead-letter-deliveries',
  at: 'x-dead-letter-at',
  consumer: 'x-dead-letter-consumer',
  routingKey: 'x-dead-letter-routing-key',
} as const;

/** Why a message was dead-lettered: its handler kept failing, or it could not be read at all. */
export type DeadLetterReason = 'handler_failed' | 'unreadable';

const MAX_ERROR_LENGTH = 500;

/** The headers of a message dead-lettered by its consumer: what it had, minus the broker's counters, plus why. */
export function deadLetterHeaders(
  msg: ConsumeMessage,
  why: { reason: DeadLetterReason; error: string; deliveries: number; consumer: string },
): Record<string, unknown> {
  const kept = { ...(msg.properties.headers ?? {}) };
  delete kept['x-delivery-count'];
  delete kept['x-death'];
  return {
    ...kept,
    [DEAD_LETTER_HEADERS.reason]: why.reason,
    [DEAD_LETTER_HEADERS.error]: why.error.slice(0, MAX_ERROR_LENGTH),
    [DEAD_LETTER_HEADERS.deliveries]: why.deliveries,
    [DEAD_LETTER_HEADERS.at]: new Date().toISOString(),
    [DEAD_LETTER_HEADERS.consumer]: why.consumer,
    [DEAD_LETTER_HEADERS.routingKey]: msg.fields.routingKey,
  };
}
