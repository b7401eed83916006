import type { QueryClient } from '@tanstack/react-query';
import type { LiveUserEvent, UserView } from '@esim/contracts';
import { USER_QUERY_KEY } from '../auth/AuthProvider';
import { refreshAffected } from './happenings';

/**
 * Writes each pushed user into the query cache, in the order the stream sent them.
 *
 * A `GET /api/user` already in flight when a push arrives was answered (or will be) from the view
 * as it stood before the push: left alone, it would land after the push and put the older balance
 * back on the points card (the wall's iframe asks for the user again the moment an offer is done,
 * which is exactly when its credit is pushed). So a push first cancels that read (TanStack Query
 * reverts the query to its state before the read) and only then writes; the pushed view is the
 * newest the gateway has. Writes are chained so that a cancellation's wait never reorders two
 * pushes.
 */
export class LiveUserWriter {
  private chain: Promise<void> = Promise.resolve();

  constructor(
    private readonly queryClient: QueryClient,
    private readonly onHappened: (message: LiveUserEvent) => void,
  ) {}

  write(message: LiveUserEvent): Promise<void> {
    this.chain = this.chain.then(() => this.apply(message)).catch(() => undefined);
    return this.chain;
  }

  private async apply(message: LiveUserEvent): Promise<void> {
    const { user, happened } = message;
    await this.queryClient.cancelQueries({ queryKey: USER_QUERY_KEY, exact: true });
    const previous = this.queryClient.getQueryData<UserView | null>(USER_QUERY_KEY);
    // The stream is the session's, so always this user; a stale tab of another must not adopt it.
    if (previous && previous.id !== user.id) return;
    this.queryClient.setQueryData(USER_QUERY_KEY, user);
    refreshAffected(this.queryClient, previous, user, happened);
    if (happened) this.onHappened(message);
  }
}
