import { ArgumentsHost, Catch, ExceptionFilter, HttpException, Logger } from '@nestjs/common';
import type { Response } from 'express';
import { AppError, ErrorCode, ERROR_STATUS } from '@esim/platform';
import { sendError } from './error-response';

const codeForStatus = (status: number): ErrorCode =>
  (Object.entries(ERROR_STATUS).find(([, s]) => s === status)?.[0] as ErrorCode | undefined) ?? (status >= 500 ? 'internal' : 'validation');

/** Maps whatever a route throws onto the spec's error answers; unknown errors never leak details. */
@Catch()
export class AppErrorFilter implements ExceptionFilter {
  private readonly log = new Logger('Http');

  catch(exception: unknown, host: ArgumentsHost): void {
    const res = host.switchToHttp().getResponse<Response>();
    if (exception instanceof AppError) return sendError(res, exception);
    if (exception instanceof HttpException) {
      const status = exception.getStatus();
      const message = status === 404 ? 'Not found' : exception.message;
      return sendError(res, AppError.ofCode(codeForStatus(status), message));
    }
    this.log.error(exception instanceof Error ? (exception.stack ?? exception.message) : String(exception));
    sendError(res, new AppError('internal_error', 'Something went wrong on our side. Please try again.'));
  }
}
