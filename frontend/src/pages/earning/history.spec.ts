import { calendarDaysAgo, dayLabel, groupTasksByDay, taskHistoryUrl, type TaskRecord } from './history';

const task = (id: string, completedAt: Date, pointsEarned: number, completed = true): TaskRecord => ({
  id,
  kind: 'survey',
  pointsEarned,
  completedAt: Number.isNaN(completedAt.getTime()) ? 'not a date' : completedAt.toISOString(),
  completed,
});

describe('mission history helpers', () => {
  const day1Morning = new Date(2025, 8, 1, 9, 30);
  const day1Evening = new Date(2025, 8, 1, 21, 5);
  const day2 = new Date(2025, 8, 3, 12, 0);

  it('asks for the first page, then the page after a cursor', () => {
    expect(taskHistoryUrl(null, 20)).toBe('/api/tasks/history?limit=20');
    expect(taskHistoryUrl('0193a1b2-0000-7000-8000-000000000001', 20)).toBe('/api/tasks/history?limit=20&cursor=0193a1b2-0000-7000-8000-000000000001');
  });

  it('groups by local day, newest day and newest task first', () => {
    const days = groupTasksByDay([task('a', day1Morning, 1), task('c', day2, 3), task('b', day1Evening, 2), task('x', new Date(NaN), 9)]);
    expect(days.map((d) => d.key)).toEqual(['2025-09-03', '2025-09-01']);
    expect(days[1].tasks.map((t) => t.id)).toEqual(['b', 'a']);
    expect(days[1].date).toEqual(new Date(2025, 8, 1));
  });

  it('names today and yesterday, and dates otherwise', () => {
    const now = new Date(2025, 8, 3, 8, 0);
    expect(calendarDaysAgo(new Date(2025, 8, 3), now)).toBe(0);
    expect(calendarDaysAgo(new Date(2025, 8, 2), now)).toBe(1);
    expect(dayLabel(new Date(2025, 8, 3), 'en', now)).toBe('Today');
    expect(dayLabel(new Date(2025, 8, 2), 'en', now)).toBe('Yesterday');
    expect(dayLabel(new Date(2025, 8, 1), 'en', now)).toBe('Monday, September 1');
    expect(dayLabel(new Date(2024, 8, 1), 'en', now)).toContain('2024');
  });
});
