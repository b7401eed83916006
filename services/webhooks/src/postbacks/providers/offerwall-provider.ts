import type { OfferwallEmbed, OfferwallId, TaskKind } from '@esim/contracts';
import type { PostbackDelivery } from '../postback-delivery';
import type { WebhooksConfig } from '../../config';
import type { PostbackParams } from './postback-params';

/** The credentials a wall may need; each provider names the ones it uses. */
export type CredentialName = 'appId' | 'secret' | 'appKey' | 'publisherId';
export type Credentials<K extends CredentialName = CredentialName> = Readonly<Record<K, string>>;

/** Which parts of a postback its signature covers (docs/earning.md, "The five walls"). */
export interface SignatureCoverage {
  user: boolean;
  transactionId: boolean;
  amount: boolean;
  /** Whether it is a credit or a reversal (a status parameter, or the amount's sign). */
  action: boolean;
}

/** What moves points: a signature must cover all of it for a live wall to run without an allow-list. */
const MOVES_POINTS = { transactionId: 'the transaction id', amount: 'the amount', action: 'whether it credits or reverses' } as const;

/** Why a live wall needs its source allow-list (what its signature leaves out), or null when it does not. */
export function requiredAllowList(covers: SignatureCoverage): string | null {
  const missing = (Object.keys(MOVES_POINTS) as Array<keyof typeof MOVES_POINTS>).filter((part) => !covers[part]).map((part) => MOVES_POINTS[part]);
  return missing.length === 0 ? null : `its signature does not cover ${missing.join(', ')}`;
}

/** A delivery read into what the ledger needs. */
export interface PostbackFacts {
  /** This delivery's own transaction id (stored with the delivery). */
  transactionId: string;
  /** The provider transaction credited, or taken back by a reversal. */
  creditTransactionId: string;
  /** Our user id, or null when the wall sent something that is not one. */
  userId: string | null;
  action: 'credit' | 'reverse';
  /** Whole points (1 point = 1 MB), absolute. */
  points: number;
  /** What the person did, read from the wall's own category or offer name (task-kind.ts). */
  kind: TaskKind;
  /** The offer's name, where the wall's postback carries one (BitLabs' offer_name, Lootably's offerName, Torox's o_name): the user's history shows it. */
  offerName?: string;
}

/** A sample offer of the sandbox wall. */
export interface SampleOffer {
  id: string;
  name: string;
  category: 'survey' | 'app' | 'video' | 'shopping';
  points: number;
}

/** What the emulated provider (and the tests) send for one credited or reversed transaction. */
export interface EmulatedPostback {
  userId: string;
  transactionId: string;
  action: 'credit' | 'reverse';
  offer: SampleOffer;
  userIp: string;
}

/**
 * One offer wall: how it identifies users, how its postbacks are read and signed (each module
 * holds the one implementation of its provider's documented scheme, used by the verifier, the
 * sandbox emulator and the tests alike), and how its wall is embedded.
 */
export interface OfferwallProvider<K extends CredentialName = CredentialName> {
  readonly id: OfferwallId;
  readonly name: string;
  /** Which environment variable holds each credential of a live wall. */
  readonly credentials: Readonly<Record<K, keyof WebhooksConfig>>;
  readonly allowedIps: keyof WebhooksConfig;
  /**
   * What the wall's signature covers. A signature that leaves out anything that moves points (the
   * transaction id, the amount, or whether it credits or reverses) lets one leaked callback URL be
   * turned into new credits or forged reversals: such a live wall refuses to start without its
   * source allow-list (requiredAllowList).
   */
  readonly signatureCovers: SignatureCoverage;
  /** Body the provider expects once a postback is processed. */
  readonly ack: string;
  /** Parameters that carry the transaction id and the user, recorded even when a delivery is refused. */
  readonly transactionParam: string;
  readonly userParam: string;

  /** The id the wall is given for our user (and sends back). */
  externalUserId(creds: Credentials<K>, userId: string): string;
  embed(creds: Credentials<K>, userId: string): OfferwallEmbed;
  /** True when the delivery carries this provider's valid signature. */
  verify(delivery: PostbackDelivery, params: PostbackParams, creds: Credentials<K>): boolean;
  /** Reads a verified delivery; throws PostbackFormatError when it cannot. */
  read(params: PostbackParams): PostbackFacts;
  /** The signed postback URL the provider calls for `postback`, under `endpoint`. */
  sign(creds: Credentials<K>, postback: EmulatedPostback, endpoint: string): string;
}
