import { useMemo } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { EsimLinesResponse, EsimPurchase } from '@esim/contracts';
import { AppNav } from '../components/AppNav';
import { useDocumentTitle } from '../lib/useDocumentTitle';
import { useErrorText } from '../lib/useErrorText';
import { AlertIcon, Button, ButtonLink, Card, EmptyState, HomeIcon, PageHeader, RefreshIcon, SimIcon, Spinner } from '../ui';
import { useOnline } from './esims/useOnline';
import { WalletCard } from './esims/WalletCard';
import { LINES_QUERY_KEY, PURCHASES_QUERY_KEY, walletEntries } from './esims/wallet';
import './earning/earning.css';
import './activation/activation.css';
import './esims/esims.css';

/** How soon a purchase whose refund could not be checked with the provider is read again. */
const UNCHECKED_RETRY_MS = 5_000;

/**
 * /esims 'My eSIMs' (spec section 2), as one wallet: the eSIMs bought by card and those redeemed
 * with points or gifted, each with its QR code (Share, Save), setup guide, what is left on it and a
 * top-up. It opens without a connection too, from the copy the service worker kept (docs/wallet.md).
 */
export default function EsimsPage() {
  const { t } = useTranslation();
  useDocumentTitle(t('esims.title'));
  const errorText = useErrorText();
  const online = useOnline();
  // A purchase whose line the provider could not be asked about in time (refund `unchecked`) is
  // asked about again a little later, while the page is open, instead of waiting for a reopen.
  const purchases = useQuery<EsimPurchase[]>({
    queryKey: PURCHASES_QUERY_KEY,
    refetchInterval: (query) => (query.state.data?.some((p) => p.refund?.reason === 'unchecked') ? UNCHECKED_RETRY_MS : false),
  });
  const lines = useQuery<EsimLinesResponse>({ queryKey: LINES_QUERY_KEY });
  const entries = useMemo(() => walletEntries(purchases.data, lines.data?.lines), [purchases.data, lines.data]);
  const loading = purchases.isPending || lines.isPending;
  const error = purchases.error ?? lines.error;
  const retry = () => {
    void purchases.refetch();
    void lines.refetch();
  };

  return (
    <>
      <main id="main" className="page page--with-nav esims">
        <PageHeader
          title={t('esims.title')}
          subtitle={t('esims.subtitle')}
          back={{ to: '/dashboard', label: t('common.backToDashboard') }}
        />

        {!online && (
          <div className="banner" role="status" data-testid="wallet-offline">
            <span className="banner__icon" aria-hidden="true">
              <AlertIcon size={20} />
            </span>
            <div>
              <p className="banner__title">{t('esims.offline.title')}</p>
              <p className="banner__text">{t('esims.offline.text')}</p>
            </div>
          </div>
        )}

        {error && !loading && (
          <div className="banner wallet-error" role="alert">
            <span className="banner__icon" aria-hidden="true">
              <AlertIcon size={20} />
            </span>
            <div className="stack stack--sm">
              <p className="banner__title">{t('esims.error.title')}</p>
              <p className="banner__text">{errorText(error)}</p>
              <Button variant="secondary" size="sm" icon={<RefreshIcon size={16} />} onClick={retry}>
                {t('esims.error.retry')}
              </Button>
            </div>
          </div>
        )}

        {loading ? (
          <div className="wallet-loading">
            <Spinner size="lg" label={t('esims.loading')} />
          </div>
        ) : entries.length > 0 ? (
          <ul className="wallet-list" aria-label={t('esims.listLabel')}>
            {entries.map((entry) => (
              <li key={entry.key}>
                <WalletCard entry={entry} />
              </li>
            ))}
          </ul>
        ) : !error ? (
          <Card>
            <EmptyState
              icon={<SimIcon size={32} />}
              title={t('esims.empty.title')}
              description={t('esims.empty.text')}
              action={
                <ButtonLink to="/dashboard" block icon={<HomeIcon size={20} />}>
                  {t('esims.empty.action')}
                </ButtonLink>
              }
            />
          </Card>
        ) : null}
      </main>
      <AppNav />
    </>
  );
}
