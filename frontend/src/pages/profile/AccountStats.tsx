import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { Task, UserView } from '@esim/contracts';
import { daysSince, formatDate, formatNumber } from '../../lib/format';
import { Card } from '../../ui';

/** Total earned (from GET /api/tasks), days active, member since. */
export function AccountStats({ user }: { user: UserView }) {
  const { t, i18n } = useTranslation();
  const tasks = useQuery<Task[]>({ queryKey: ['/api/tasks'] });
  const n = (value: number) => formatNumber(value, i18n.language);
  const fromTasks = Array.isArray(tasks.data) && tasks.data.length > 0 ? tasks.data.reduce((sum, task) => sum + (Number(task.pointsEarned) || 0), 0) : null;
  const totalEarned = fromTasks ?? Math.max(0, user.points);
  return (
    <Card title={t('profile.stats.title')} titleId="stats-title">
      <dl className="facts facts--tiles stats-grid">
        <div>
          <dt>{t('profile.stats.totalEarned')}</dt>
          <dd>{tasks.isPending ? '…' : t('common.mbValue', { value: n(totalEarned) })}</dd>
        </div>
        <div>
          <dt>{t('profile.stats.daysActive')}</dt>
          <dd>{n(daysSince(user.createdAt))}</dd>
        </div>
        <div>
          <dt>{t('profile.stats.memberSince')}</dt>
          <dd>{formatDate(user.createdAt, i18n.language, { month: 'short', year: 'numeric' })}</dd>
        </div>
      </dl>
    </Card>
  );
}
