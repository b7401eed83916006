import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * A user identity announced, as far as offer walls are concerned: the ingestion service answers a
 * postback for anyone else as an unknown user, on its own. A deletion may arrive first; the row
 * then exists deleted and the later registration leaves it so.
 */
@Entity({ name: 'registered_users' })
export class RegisteredUser {
  @PrimaryColumn('uuid', { name: 'user_id' }) userId!: string;
  @Column({ name: 'registered_at', type: 'timestamptz', nullable: true }) registeredAt!: Date | null;
  @Column({ name: 'deleted_at', type: 'timestamptz', nullable: true }) deletedAt!: Date | null;
}
