import { AppError, validationError } from './app-error';

describe('AppError', () => {
  it('derives the code and the HTTP status from the declared reason', () => {
    const err = new AppError('insufficient_points', 'Insufficient points', { details: { requested: 10, available: 3 } });
    expect({ code: err.code, status: err.status, reason: err.reason }).toEqual({ code: 'conflict', status: 409, reason: 'insufficient_points' });
    expect(err.toShape()).toEqual({ code: 'conflict', message: 'Insufficient points', reason: 'insufficient_points', details: { requested: 10, available: 3 } });
    expect(new AppError('provider_unavailable', 'down').status).toBe(503);
  });

  it('comes back from the wire as the same error; an undeclared reason becomes its code\'s generic one', () => {
    const back = AppError.fromShape(new AppError('line_not_found', 'No such line').toShape());
    expect(back).toBeInstanceOf(AppError);
    expect({ reason: back.reason, status: back.status }).toEqual({ reason: 'line_not_found', status: 404 });
    expect(AppError.fromShape({ code: 'conflict', message: 'x', reason: 'from_a_newer_peer' }).reason).toBe('conflict');
    expect(AppError.fromShape({ code: 'unavailable', message: 'x' }).reason).toBe('service_unavailable');
    expect(AppError.ofCode('not_found', 'Not found').reason).toBe('not_found');
  });

  it('answers schema failures as invalid_request with each field', () => {
    const err = validationError([{ message: 'Required', path: ['iccid'] }]);
    expect(err.toShape()).toMatchObject({ code: 'validation', reason: 'invalid_request', details: [{ path: 'iccid', message: 'Required' }] });
  });

  it('does not compile with an undeclared reason or details of the wrong shape (checked by npm run typecheck)', () => {
    const typo = () =>
      // @ts-expect-error a reason that is not declared in @esim/contracts
      new AppError('insufficent_points', 'typo');
    const oldStyle = () =>
      // @ts-expect-error the code is no longer the first argument, nor the reason an option
      new AppError('conflict', 'Not today.', { reason: 'not_today' });
    const noDetails = () =>
      // @ts-expect-error insufficient_points declares its details
      new AppError('insufficient_points', 'no numbers');
    const wrongDetails = () =>
      // @ts-expect-error the details are { requested, available }
      new AppError('insufficient_points', 'wrong numbers', { details: { needed: 1 } });
    expect(typo).toThrow("'insufficent_points' is not a declared error reason");
    expect([oldStyle, noDetails, wrongDetails].map((make) => make() instanceof AppError)).toEqual([true, true, true]);
  });
});
