/** Names on the broker, derived from configuration so that environments and test runs never meet. */
export interface MessagingNames {
  exchange: string;
  queuePrefix: string;
}

export const rpcQueueName = (n: MessagingNames, service: string) => `${n.queuePrefix}${service}.rpc`;
export const eventQueueName = (n: MessagingNames, consumer: string) => `${n.queuePrefix}${consumer}.events`;
export const deadLetterQueueName = (n: MessagingNames, consumer: string) => `${eventQueueName(n, consumer)}.dlq`;
