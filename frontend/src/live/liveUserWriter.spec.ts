import { QueryClient } from '@tanstack/react-query';
import type { LiveUserEvent, UserView } from '@esim/contracts';
import { USER_QUERY_KEY } from '../auth/AuthProvider';
import { LiveUserWriter } from './liveUserWriter';

const user = (points: number) => ({ id: 'u-1', points }) as unknown as UserView;
const credited = (points: number): LiveUserEvent => ({ user: user(points), happened: { kind: 'points-credited', points: 250, provider: 'cpx' } }) as LiveUserEvent;

/** A read of GET /api/user the test answers when it likes, as a slow gateway would. */
function slowRead(queryClient: QueryClient) {
  let answer: (view: UserView) => void = () => undefined;
  const read = queryClient
    .fetchQuery({ queryKey: USER_QUERY_KEY, queryFn: () => new Promise<UserView>((resolve) => (answer = resolve)), staleTime: 0 })
    .catch(() => undefined);
  return { answer: (view: UserView) => answer(view), read };
}

describe('LiveUserWriter: a pushed user is never overwritten by an older read', () => {
  it('keeps the pushed balance when a read that started before the push answers after it', async () => {
    const queryClient = new QueryClient();
    queryClient.setQueryData(USER_QUERY_KEY, user(1000));
    const told: LiveUserEvent[] = [];
    const writer = new LiveUserWriter(queryClient, (m) => told.push(m));

    // The wall's iframe navigated: the page asks for the user; the view has no credit yet.
    const { answer, read } = slowRead(queryClient);
    await writer.write(credited(1250));
    answer(user(1000));
    await read;

    expect(queryClient.getQueryData<UserView>(USER_QUERY_KEY)?.points).toBe(1250);
    expect(told).toHaveLength(1);
  });

  it('applies pushes in the order the stream sent them', async () => {
    const queryClient = new QueryClient();
    queryClient.setQueryData(USER_QUERY_KEY, user(0));
    const writer = new LiveUserWriter(queryClient, () => undefined);
    slowRead(queryClient);
    void writer.write(credited(250));
    await writer.write(credited(500));
    expect(queryClient.getQueryData<UserView>(USER_QUERY_KEY)?.points).toBe(500);
  });

  it("does not adopt another account's view in a stale tab", async () => {
    const queryClient = new QueryClient();
    queryClient.setQueryData(USER_QUERY_KEY, { id: 'someone-else', points: 3 } as unknown as UserView);
    await new LiveUserWriter(queryClient, () => undefined).write(credited(1250));
    expect(queryClient.getQueryData<UserView>(USER_QUERY_KEY)?.points).toBe(3);
  });
});
