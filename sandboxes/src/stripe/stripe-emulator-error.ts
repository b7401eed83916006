/** Stripe's error body: `{ error: { type, code, decline_code, message, param, … } }`. */
export interface StripeErrorBody {
  type: 'invalid_request_error' | 'card_error' | 'idempotency_error' | 'api_error' | 'authentication_error';
  message: string;
  code?: string;
  decline_code?: string;
  param?: string;
  doc_url?: string;
  [extra: string]: unknown;
}

/** Raised inside the emulator; answered with Stripe's status and error body. */
export class StripeEmulatorError extends Error {
  constructor(
    readonly httpStatus: number,
    readonly body: StripeErrorBody,
  ) {
    super(body.message);
    this.name = 'StripeEmulatorError';
  }

  static invalid(message: string, opts: { code?: string; param?: string; status?: number } = {}): StripeEmulatorError {
    return new StripeEmulatorError(opts.status ?? 400, {
      type: 'invalid_request_error',
      message,
      ...(opts.code ? { code: opts.code, doc_url: `https://stripe.com/docs/error-codes/${opts.code.replaceAll('_', '-')}` } : {}),
      ...(opts.param ? { param: opts.param } : {}),
    });
  }

  static missing(resource: string, id: string, param?: string): StripeEmulatorError {
    return StripeEmulatorError.invalid(`No such ${resource}: '${id}'`, { code: 'resource_missing', param, status: 404 });
  }

  static authentication(message: string): StripeEmulatorError {
    return new StripeEmulatorError(401, { type: 'invalid_request_error', message });
  }
}
