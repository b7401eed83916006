import type { LiveHappening, OfferwallId } from '@esim/contracts';

type PointsHappening = Extract<LiveHappening, { kind: 'points-credited' | 'points-reversed' }>;

/**
 * The notices of a group of credits (or of reversals): one per user and wall, with the points
 * summed, so that a burst of a wall's credits for one user is one Redis PUBLISH and one notice on
 * the open pages ('+2,000 MB from CPX Research'), not one each. The SPA's texts of every language
 * (live.credited, live.reversed) take the number as an amount of MB, so a sum reads as one credit
 * does. In the order of each user and wall's first event.
 */
export function pointsNotices(
  kind: PointsHappening['kind'],
  events: ReadonlyArray<{ payload: { userId: string; provider: OfferwallId; points: number } }>,
): Array<{ userId: string; happened: PointsHappening }> {
  const byUserAndWall = new Map<string, { userId: string; happened: PointsHappening }>();
  for (const { payload } of events) {
    const { userId, provider, points } = payload;
    const key = `${userId} ${provider}`;
    const notice = byUserAndWall.get(key);
    if (notice) notice.happened.points += points;
    else byUserAndWall.set(key, { userId, happened: { kind, points, provider } });
  }
  return [...byUserAndWall.values()];
}
