import { z } from 'zod';
import { defineRpc } from '../rpc/rpc-definition';

/** One email the product sent the user: what it was about and when, never its address or content. */
export const sentEmailSchema = z.object({ kind: z.string(), subject: z.string(), sentAt: z.string() });
export type SentEmail = z.infer<typeof sentEmailSchema>;

/** What notifications answers: the emails sent to the acting user (meta.userId), for their data export. */
export const NotificationsRpc = {
  listSentEmails: defineRpc('notifications', 'list-sent-emails', z.object({}), z.object({ emails: z.array(sentEmailSchema) })),
} as const;
