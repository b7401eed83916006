import { Column, CreateDateColumn, Entity, PrimaryColumn, UpdateDateColumn } from 'typeorm';
import type { CheckoutCountry, PaymentMethod, PrepaidPlanId, PurchaseStatus } from '@esim/contracts';

/** An eSIM bought by card: one per Stripe PaymentIntent (see the purchases migration). */
@Entity({ name: 'esim_purchases' })
export class EsimPurchaseEntity {
  /** Chosen before the PaymentIntent is created, so that its metadata can name the purchase. */
  @PrimaryColumn('uuid') id!: string;
  @Column({ name: 'user_id', type: 'uuid' }) userId!: string;
  @Column({ name: 'plan_type', type: 'text' }) planType!: PrepaidPlanId;
  @Column({ name: 'amount_gb', type: 'int' }) amountGB!: number;
  /** Minor units of `currency` (cents or centavos), from the catalogue; the column keeps its first name. */
  @Column({ name: 'price_usd', type: 'int' }) priceUSD!: number;
  /** Stripe's lower-case code of the intent's currency: `usd` or `brl` (1738000000000-purchase-currency.ts). */
  @Column({ type: 'text', default: 'usd' }) currency!: string;
  @Column({ type: 'text' }) country!: CheckoutCountry;
  /** `card` or `pix` (reais only; 1739000000000-purchase-payment-method.ts). */
  @Column({ name: 'payment_method', type: 'text', default: 'card' }) paymentMethod!: PaymentMethod;
  @Column({ name: 'payment_intent_id', type: 'text' }) paymentIntentId!: string;
  @Column({ type: 'text', default: 'pending' }) status!: PurchaseStatus;
  @Column({ type: 'text', nullable: true }) iccid!: string | null;
  @Column({ name: 'lpa_code', type: 'text', nullable: true }) lpaCode!: string | null;
  @Column({ type: 'text', nullable: true }) msisdn!: string | null;
  /** PNG data URL of the LPA code, drawn once at activation. */
  @Column({ name: 'qr_code', type: 'text', nullable: true }) qrCode!: string | null;
  /** The eSIM provider's order (transaction) id. */
  @Column({ name: 'provider_order_id', type: 'text', nullable: true }) providerOrderId!: string | null;
  @Column({ name: 'failure_reason', type: 'text', nullable: true }) failureReason!: string | null;
  @Column({ name: 'failure_message', type: 'text', nullable: true }) failureMessage!: string | null;
  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' }) createdAt!: Date;
  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' }) updatedAt!: Date;
  @Column({ name: 'paid_at', type: 'timestamptz', nullable: true }) paidAt!: Date | null;
  @Column({ name: 'activated_at', type: 'timestamptz', nullable: true }) activatedAt!: Date | null;
}
