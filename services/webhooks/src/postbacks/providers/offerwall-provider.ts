import type { OfferwallEmbed, OfferwallId, TaskType } from '@esim/contracts';
import type { PostbackDelivery } from '../postback-delivery';
import type { WebhooksConfig } from '../../config';
import type { PostbackParams } from './postback-params';

/** The credentials a wall may need; each provider names the ones it uses. */
export type CredentialName = 'appId' | 'secret' | 'appKey' | 'publisherId';
export type Credentials<K extends CredentialName = CredentialName> = Readonly<Record<K, string>>;

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
  taskType: TaskType;
  /** The offer's name, where the wall's postback carries one (BitLabs' offer_name, Lootably's offerName): the user's history shows it. */
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
   * Set when the signature leaves out what makes a postback new (the transaction id): anyone
   * holding one signed callback could mint credits with fresh ids, so a live wall refuses to start
   * without its source allow-list. Says why.
   */
  readonly allowListRequired?: string;
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
