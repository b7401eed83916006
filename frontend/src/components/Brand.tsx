import { Link } from 'react-router';
import { BRAND_NAME } from '../brand';
import { SignalIcon } from '../ui';

/** Logo and name; a link home. */
export function Brand({ to = '/', label }: { to?: string; label?: string }) {
  return (
    <Link to={to} className="brand" aria-label={label ?? BRAND_NAME}>
      <span className="brand__mark" aria-hidden="true">
        <SignalIcon size={20} />
      </span>
      <span aria-hidden="true">{BRAND_NAME}</span>
    </Link>
  );
}
