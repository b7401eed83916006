import { z } from 'zod';
import { AUDIT_OUTCOMES, auditEntrySchema } from '../http/admin-operations.http';
import { SORT_ORDERS } from '../http/admin-users.http';
import { text } from '../http/text.http';
import { defineAdminRpc, defineRpc } from '../rpc/rpc-definition';
import { adminCursorSchema } from '../admin/admin-cursor';

/** The identity columns of the admin user table. */
export const adminIdentityUserSchema = z.object({
  id: z.string().uuid(),
  name: z.string(),
  email: z.string(),
  isAdmin: z.boolean(),
  createdAt: z.string(),
});
export type AdminIdentityUser = z.infer<typeof adminIdentityUserSchema>;

/** The orders identity can page users in itself (points is rewards'). */
export const IDENTITY_USER_SORTS = ['createdAt', 'name', 'email'] as const;
export type IdentityUserSort = (typeof IDENTITY_USER_SORTS)[number];
/** At most this many ids of a search are ranked by points (docs/admin.md, "The user table"). */
export const SEARCH_IDS_MAX = 10_000;

/**
 * Admin reads of accounts. Every one answers 403 unless the acting user (meta.userId) is an admin
 * now: identity checks it again, whatever the gateway checked.
 */
export const IdentityAdminRpc = {
  /** One page of live accounts: `q` matches part of the name or email; keyset `cursor` or `offset`. */
  searchUsers: defineAdminRpc(
    'identity',
    'admin-search-users',
    z.object({
      q: text().max(100).optional(),
      sort: z.enum(IDENTITY_USER_SORTS),
      order: z.enum(SORT_ORDERS),
      cursor: adminCursorSchema.optional(),
      offset: z.number().int().min(0).default(0),
      limit: z.number().int().min(1).max(1000),
      /** Skip counting the matches (the CSV export reads every page and needs no total). */
      withTotal: z.boolean().default(true),
    }),
    z.object({ users: z.array(adminIdentityUserSchema), nextCursor: z.string().nullable(), total: z.number().int().nullable() }),
  ),
  /** The live accounts among these ids (unknown or deleted ones are absent). */
  /**
   * Accounts linked by the fraud signals (docs/earning.md, "Fair fraud control"): groups of live
   * accounts that used one device, each account with its other signals. An address alone links
   * nothing: `sharedNetworks` only says how many of its sign-up and sign-in networks another
   * account of the group used too.
   */
  linkedAccounts: defineAdminRpc(
    'identity',
    'admin-linked-accounts',
    z.object({ limit: z.number().int().min(1).max(200) }),
    z.object({
      groups: z.array(
        z.object({
          /** The shared device's id: what a decision over the group names. */
          groupId: z.string().uuid(),
          reasons: z.array(z.enum(['shared_device'])),
          accounts: z.array(
            z.object({ userId: z.string().uuid(), name: z.string(), email: z.string(), disposableEmail: z.boolean(), sharedNetworks: z.number().int() }),
          ),
        }),
      ),
    }),
  ),
  /**
   * The live accounts of a linked group; with `notSamePerson`, the admin decided they are different
   * people: the device no longer links them (AccountSignalsChanged announces it).
   */
  linkedGroup: defineAdminRpc(
    'identity',
    'admin-linked-group',
    z.object({ groupId: z.string().uuid(), notSamePerson: z.boolean().default(false) }),
    z.object({ userIds: z.array(z.string().uuid()) }),
  ),
  getUsers: defineAdminRpc(
    'identity',
    'admin-get-users',
    z.object({ userIds: z.array(z.string().uuid()).max(1000) }),
    z.object({ users: z.array(adminIdentityUserSchema) }),
  ),
  /** Ids of the live accounts matching `q`, oldest first, at most SEARCH_IDS_MAX (then `truncated`). */
  searchUserIds: defineAdminRpc(
    'identity',
    'admin-search-user-ids',
    z.object({ q: text().min(1).max(100) }),
    z.object({ userIds: z.array(z.string().uuid()), total: z.number().int(), truncated: z.boolean() }),
  ),
} as const;

const auditValue = z.union([z.string().max(500), z.number(), z.boolean(), z.null()]);

/** One admin action as the gateway records it; the actor is the acting user (meta.userId). */
export const auditRecordSchema = z.object({
  /** Made by the caller, so that a retried record is stored once. */
  id: z.string().uuid(),
  action: z.string().regex(/^[a-z][a-z0-9_]{1,63}$/),
  targetType: z.string().max(40).nullable(),
  targetId: z.string().max(200).nullable(),
  details: z.record(z.string().max(40), auditValue).default({}),
  /** Set when the action is recorded after it finished; otherwise recordOutcome follows. */
  outcome: z.enum(AUDIT_OUTCOMES).optional(),
  outcomeMessage: z.string().max(500).optional(),
});

/** An entry as the HTTP answer shows it, with its position in the trail (the paging cursor). */
export const auditEntryRpcSchema = auditEntrySchema.extend({ seq: z.string() });

/**
 * The append-only audit trail of admin actions, kept by identity (docs/admin.md): the database
 * refuses to change or delete an entry. The gateway writes an action before doing it and its
 * outcome after; grants and revokes of admin are written by identity itself.
 */
export const AuditRpc = {
  record: defineAdminRpc('identity', 'audit-record', auditRecordSchema, z.object({ id: z.string().uuid() })),
  recordOutcome: defineRpc(
    'identity',
    'audit-record-outcome',
    z.object({ entryId: z.string().uuid(), outcome: z.enum(AUDIT_OUTCOMES), message: z.string().max(500).optional() }),
    z.object({}),
  ),
  list: defineAdminRpc(
    'identity',
    'audit-list',
    z.object({ before: z.string().regex(/^\d{1,18}$/).optional(), limit: z.number().int().min(1).max(200) }),
    z.object({ entries: z.array(auditEntryRpcSchema), nextCursor: z.string().nullable() }),
  ),
} as const;
