import type { Task } from '@esim/contracts';

/** What /history reads of a task (GET /api/tasks/history). */
export type TaskRecord = Pick<Task, 'id' | 'kind' | 'pointsEarned' | 'completedAt' | 'completed'> &
  Partial<Pick<Task, 'provider' | 'reversedAt' | 'offerName'>>;

export interface TaskDay<T extends TaskRecord = TaskRecord> {
  /** Local calendar day, `YYYY-MM-DD`. */
  key: string;
  /** Local midnight of that day. */
  date: Date;
  tasks: T[];
}

const pad = (n: number) => String(n).padStart(2, '0');
const dayKey = (d: Date) => `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;

/**
 * Tasks grouped by the local day they were completed on: newest day first, newest task first
 * within a day. Tasks with an unreadable date are left out.
 */
export function groupTasksByDay<T extends TaskRecord>(tasks: readonly T[]): TaskDay<T>[] {
  const dated = tasks
    .map((task) => ({ task, time: new Date(task.completedAt).getTime() }))
    .filter(({ time }) => Number.isFinite(time))
    .sort((a, b) => b.time - a.time);
  const days: TaskDay<T>[] = [];
  for (const { task, time } of dated) {
    const at = new Date(time);
    const key = dayKey(at);
    const last = days[days.length - 1];
    if (last?.key === key) last.tasks.push(task);
    else days.push({ key, date: new Date(at.getFullYear(), at.getMonth(), at.getDate()), tasks: [task] });
  }
  return days;
}

/** Whole calendar days from `date` to `now` (0 = today, 1 = yesterday), in local time. */
export function calendarDaysAgo(date: Date, now: Date = new Date()): number {
  const a = Date.UTC(date.getFullYear(), date.getMonth(), date.getDate());
  const b = Date.UTC(now.getFullYear(), now.getMonth(), now.getDate());
  return Math.round((b - a) / 86_400_000);
}

/** "Today", "Yesterday" (Intl, in the interface language), else the date with its weekday. */
export function dayLabel(date: Date, locale: string, now: Date = new Date()): string {
  const ago = calendarDaysAgo(date, now);
  if (ago === 0 || ago === 1) {
    try {
      const text = new Intl.RelativeTimeFormat(locale, { numeric: 'auto' }).format(-ago, 'day');
      return text.charAt(0).toLocaleUpperCase(locale) + text.slice(1);
    } catch {
      // fall through to the date
    }
  }
  const options: Intl.DateTimeFormatOptions = { weekday: 'long', day: 'numeric', month: 'long' };
  if (date.getFullYear() !== now.getFullYear()) options.year = 'numeric';
  try {
    return new Intl.DateTimeFormat(locale, options).format(date);
  } catch {
    return date.toDateString();
  }
}

/** The URL of a page of the missions: the first, or the one after the task `cursor` names. */
export function taskHistoryUrl(cursor: string | null, limit: number): string {
  return cursor ? `/api/tasks/history?limit=${limit}&cursor=${encodeURIComponent(cursor)}` : `/api/tasks/history?limit=${limit}`;
}
