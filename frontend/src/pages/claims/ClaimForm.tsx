import { useState, type FormEvent } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { WALL_CLAIM_GUIDE, type CreditClaim, type OfferwallId, type OfferwallsResponse } from '@esim/contracts';
import { formatNumber } from '../../lib/format';
import { useErrorText } from '../../lib/useErrorText';
import { Button, Card, Input, Select, Spinner, useToast } from '../../ui';
import { OFFERWALLS_QUERY_KEY } from '../earning/queryKeys';
import { CREDIT_CLAIMS_QUERY_KEY, fileClaim, localToday } from './claimsApi';

/**
 * "I completed an offer and got nothing" (docs/earning.md, "Missing credit"): the wall, the user's
 * id at that wall and today's date come filled in; the user adds the offer's name and the day. It
 * says how long the wall may take and where its own support is before anything is sent.
 */
export function ClaimForm({ initialWall }: { initialWall: OfferwallId | null }) {
  const { t, i18n } = useTranslation();
  const { toast } = useToast();
  const errorText = useErrorText();
  const queryClient = useQueryClient();
  const walls = useQuery<OfferwallsResponse>({ queryKey: OFFERWALLS_QUERY_KEY });
  const [chosen, setChosen] = useState<OfferwallId | null>(initialWall);
  const [offerName, setOfferName] = useState('');
  const [completedOn, setCompletedOn] = useState(localToday());
  const [errors, setErrors] = useState<{ offerName?: string; completedOn?: string }>({});
  const [failure, setFailure] = useState<string | null>(null);

  const list = walls.data?.walls ?? [];
  const wall = list.find((w) => w.id === chosen) ?? list[0] ?? null;
  const guide = wall ? WALL_CLAIM_GUIDE[wall.id] : null;

  const send = useMutation<CreditClaim, Error, void>({
    mutationFn: () => fileClaim({ wall: wall!.id, offerName: offerName.trim(), completedOn }),
    onSuccess: () => {
      setOfferName('');
      setFailure(null);
      toast({ title: t('claims.sent'), description: t('claims.sentText'), variant: 'success' });
      void queryClient.invalidateQueries({ queryKey: CREDIT_CLAIMS_QUERY_KEY });
    },
    onError: (error) => setFailure(errorText(error, t('claims.failed'))),
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const next: typeof errors = {};
    if (offerName.trim().length < 2) next.offerName = t('claims.form.offerNameMissing');
    if (!completedOn || completedOn > localToday()) next.completedOn = t('claims.form.dateInvalid');
    setErrors(next);
    if (Object.keys(next).length === 0 && wall) send.mutate();
  };

  if (walls.isPending) return <Spinner label={t('common.loading')} />;
  if (!wall || !guide) return <p className="muted">{t('claims.form.noWalls')}</p>;
  return (
    <Card title={t('claims.form.title')} titleId="claim-form-title">
      <form className="stack" onSubmit={submit} noValidate aria-labelledby="claim-form-title" data-testid="claim-form">
        <Select
          label={t('claims.form.wall')}
          value={wall.id}
          onChange={(e) => setChosen(e.target.value as OfferwallId)}
          options={list.map((w) => ({ value: w.id, label: w.name }))}
        />
        <Input label={t('claims.form.wallUserId', { wall: wall.name })} value={wall.uid} readOnly dir="ltr" hint={t('claims.form.wallUserIdHint')} />
        <div className="claim-guide" role="note" data-testid="claim-guide">
          <p>{t('claims.form.wait', { wall: wall.name, hours: formatNumber(guide.creditWithinHours, i18n.language) })}</p>
          <p>
            <a href={guide.supportUrl} target="_blank" rel="noreferrer noopener">
              {t('claims.form.supportLink', { wall: wall.name })}
            </a>
          </p>
        </div>
        <Input
          label={t('claims.form.offerName')}
          value={offerName}
          onChange={(e) => setOfferName(e.target.value)}
          maxLength={200}
          autoComplete="off"
          required
          error={errors.offerName}
          hint={t('claims.form.offerNameHint')}
        />
        <Input
          label={t('claims.form.completedOn')}
          type="date"
          value={completedOn}
          max={localToday()}
          onChange={(e) => setCompletedOn(e.target.value)}
          required
          error={errors.completedOn}
        />
        {failure && (
          <p role="alert" className="field__error">
            {failure}
          </p>
        )}
        <Button type="submit" block busy={send.isPending}>
          {t('claims.form.submit')}
        </Button>
      </form>
    </Card>
  );
}
