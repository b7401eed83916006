import { SERVICE_PORTS } from '../ports/index';
import { AuditRpc } from '../identity/identity-admin.rpc';

const answered = Object.values(SERVICE_PORTS).flatMap((p) => p.answers);

describe('admin-only RPCs', () => {
  it('declares every admin read and action `admin: true`, so the answering service checks the caller itself', () => {
    // By name: every `admin-…` RPC; and the admin calls named otherwise.
    const adminByName = answered.filter((d) => /\.admin-/.test(d.pattern)).map((d) => d.pattern);
    const alsoAdmin = ['esim.grant-gift', 'esim.get-gift-totals', 'esim.get-gift-summaries', 'rewards.get-balances', 'identity.audit-record', 'identity.audit-list'];
    const declared = answered.filter((d) => d.admin).map((d) => d.pattern);
    expect(declared.sort()).toEqual([...adminByName, ...alsoAdmin].sort());
  });

  it('leaves the outcome of an audited action recordable after the admin flag is gone (identity checks the actor instead)', () => {
    expect(AuditRpc.recordOutcome.admin).toBe(false);
  });

  it('never makes the admin check itself admin-only', () => {
    expect(answered.find((d) => d.pattern === 'identity.is-admin')?.admin).toBe(false);
  });
});
