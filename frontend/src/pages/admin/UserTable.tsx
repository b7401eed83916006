import { useEffect, useState } from 'react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { AdminUserRow, AdminUserSort, SortOrder } from '@esim/contracts';
import { formatDate, formatNumber } from '../../lib/format';
import { Button, Card, DocIcon, GiftIcon, Input, Select, Spinner } from '../../ui';
import { ADMIN_KEYS, fetchUsersPage, REDEMPTION_THRESHOLD_POINTS, USERS_PAGE_SIZE } from './adminApi';
import type { GiftTarget } from './GiftDialog';
import { useDebounced } from './useDebounced';

const SORTS = ['createdAt-desc', 'createdAt-asc', 'name-asc', 'name-desc', 'email-asc', 'points-desc', 'points-asc'] as const;
type SortChoice = (typeof SORTS)[number];
const COLUMN_OF: Partial<Record<AdminUserSort, string>> = { name: 'name', email: 'email', points: 'points' };

/**
 * The user table (spec section 6): searched, ordered and paged by the server, one page of
 * USERS_PAGE_SIZE at a time (cursor pages: the SPA keeps the cursors of the pages before for
 * "previous"). ICCID shows its first 8 characters; the badge reads 'Can redeem' at 1000 points.
 */
export function UserTable({ onGift }: { onGift: (user: GiftTarget) => void }) {
  const { t, i18n } = useTranslation();
  const [q, setQ] = useState('');
  const [sortChoice, setSortChoice] = useState<SortChoice>('createdAt-desc');
  const [cursors, setCursors] = useState<Array<string | null>>([null]);
  const search = useDebounced(q.trim(), 300);
  const [sort, order] = sortChoice.split('-') as [AdminUserSort, SortOrder];
  const cursor = cursors[cursors.length - 1];

  useEffect(() => setCursors([null]), [search, sortChoice]);

  const page = useQuery({
    queryKey: [...ADMIN_KEYS.users, search, sort, order, cursor],
    queryFn: ({ signal }) => fetchUsersPage({ q: search, sort, order, cursor }, signal),
    placeholderData: keepPreviousData,
  });
  const rows = page.data?.rows ?? [];
  const from = (cursors.length - 1) * USERS_PAGE_SIZE + (rows.length ? 1 : 0);
  const to = (cursors.length - 1) * USERS_PAGE_SIZE + rows.length;
  const none = (
    <>
      <span aria-hidden="true">–</span>
      <span className="visually-hidden">{t('admin.users.none')}</span>
    </>
  );
  const ariaSort = (column: string) => (COLUMN_OF[sort] === column ? (order === 'asc' ? 'ascending' : 'descending') : undefined);

  return (
    <Card
      title={t('admin.users.title')}
      titleId="admin-users-title"
      action={
        <a className="btn btn--secondary btn--sm" href="/api/admin/users/export" download data-testid="export-users">
          <DocIcon size={18} />
          <span>{t('admin.users.export')}</span>
        </a>
      }
    >
      <div className="admin__filters">
        <Input label={t('admin.users.search')} type="search" value={q} placeholder={t('admin.users.searchPlaceholder')} onChange={(e) => setQ(e.target.value)} autoComplete="off" />
        <Select label={t('admin.users.sortBy')} value={sortChoice} onChange={(e) => setSortChoice(e.target.value as SortChoice)} options={SORTS.map((s) => ({ value: s, label: t(`admin.users.sort.${s}`) }))} />
      </div>
      {page.isError && (
        <p role="alert" className="admin__error">
          {t('admin.loadFailed')}
        </p>
      )}
      <div className="admin__table-wrap" role="region" aria-labelledby="admin-users-title" tabIndex={0}>
        <table className="admin__table" aria-busy={page.isFetching || undefined}>
          <caption className="visually-hidden">{t('admin.users.caption')}</caption>
          <thead>
            <tr>
              <th scope="col" aria-sort={ariaSort('name')}>
                {t('admin.users.columns.name')}
              </th>
              <th scope="col" aria-sort={ariaSort('email')}>
                {t('admin.users.columns.email')}
              </th>
              <th scope="col">{t('admin.users.columns.iccid')}</th>
              <th scope="col" aria-sort={ariaSort('points')} className="num">
                {t('admin.users.columns.points')}
              </th>
              <th scope="col" className="num">
                {t('admin.users.columns.dataGifted')}
              </th>
              <th scope="col">{t('admin.users.columns.lastGifted')}</th>
              <th scope="col">{t('admin.users.columns.status')}</th>
              <th scope="col">
                <span className="visually-hidden">{t('admin.users.columns.actions')}</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {rows.map((u: AdminUserRow) => (
              <tr key={u.id} data-testid="admin-user-row" data-user-id={u.id}>
                <th scope="row">{u.name}</th>
                <td>{u.email}</td>
                <td className="mono">{u.iccid ? u.iccid.slice(0, 8) : none}</td>
                <td className="num">{formatNumber(u.points, i18n.language)}</td>
                <td className="num" data-testid="admin-user-gifts">
                  {t('common.gbValue', { value: formatNumber(u.dataGiftedGB, i18n.language) })}
                  {u.giftsGrantedGB > 0 && (
                    <span className="admin__gift-tally">
                      {t('gifts.admin.tally', {
                        granted: formatNumber(u.giftsGrantedGB, i18n.language),
                        claimed: formatNumber(u.giftsClaimedGB, i18n.language),
                        pending: formatNumber(u.giftsPendingGB, i18n.language),
                      })}
                    </span>
                  )}
                </td>
                <td>{u.lastGiftedAt ? formatDate(u.lastGiftedAt, i18n.language, { dateStyle: 'medium', timeStyle: 'short' }) : none}</td>
                <td>
                  {u.points >= REDEMPTION_THRESHOLD_POINTS ? (
                    <span className="badge badge--success">{t('admin.users.canRedeem')}</span>
                  ) : (
                    <span className="badge">{t('admin.users.earning')}</span>
                  )}
                </td>
                <td>
                  <Button variant="ghost" size="sm" icon={<GiftIcon size={16} />} onClick={() => onGift({ id: u.id, name: u.name, email: u.email })}>
                    <span className="visually-hidden">{t('admin.users.giftTo', { name: u.name })}</span>
                    <span aria-hidden="true">{t('admin.gift.open')}</span>
                  </Button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        {page.isSuccess && rows.length === 0 && <p className="admin__empty">{t('admin.users.empty')}</p>}
        {page.isPending && <Spinner label={t('common.loading')} />}
      </div>
      <div className="admin__pager">
        <p className="small muted" aria-live="polite">
          {page.data ? t('admin.users.range', { from: formatNumber(from, i18n.language), to: formatNumber(to, i18n.language), total: formatNumber(page.data.total, i18n.language) }) : ''}
        </p>
        <div className="admin__pager-buttons">
          <Button variant="secondary" size="sm" disabled={cursors.length <= 1 || page.isFetching} onClick={() => setCursors((c) => c.slice(0, -1))}>
            {t('admin.users.previous')}
          </Button>
          <Button
            variant="secondary"
            size="sm"
            disabled={!page.data?.nextCursor || page.isFetching}
            onClick={() => page.data?.nextCursor && setCursors((c) => [...c, page.data!.nextCursor])}
          >
            {t('admin.users.next')}
          </Button>
        </div>
      </div>
    </Card>
  );
}
