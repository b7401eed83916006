import { Controller, Get, Header, Inject } from '@nestjs/common';
import * as contracts from '@esim/contracts';
import { AppError, CONFIG } from '@esim/platform';
import type { GatewayConfig } from '../config';
import { renderOpenApiPage } from './openapi-page';

const DOCUMENT_PATH = '/api/docs/openapi.json';

/**
 * The API reference (`/api/docs`, `/api/docs/openapi.json`), built at start-up from the same
 * contracts as docs/openapi.json. Outside production only: the reference maps every route and is
 * for the people building against it.
 */
@Controller('api/docs')
export class DocsController {
  private readonly document: contracts.OpenApiDocument | null;
  private readonly page: string | null;

  constructor(@Inject(CONFIG) config: GatewayConfig) {
    const served = config.NODE_ENV !== 'production';
    this.document = served ? contracts.buildOpenApiDocument(contracts.collectRoutes(contracts)) : null;
    this.page = this.document ? renderOpenApiPage(this.document, DOCUMENT_PATH) : null;
  }

  @Get()
  @Header('Content-Type', 'text/html; charset=utf-8')
  html(): string {
    if (!this.page) throw notServed();
    return this.page;
  }

  @Get('openapi.json')
  json(): contracts.OpenApiDocument {
    if (!this.document) throw notServed();
    return this.document;
  }
}

function notServed(): AppError {
  return new AppError('not_found', 'Not found');
}
