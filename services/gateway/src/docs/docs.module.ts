import { Module } from '@nestjs/common';
import { DocsController } from './docs.controller';

/** /api/docs: the generated API reference, outside production. */
@Module({ controllers: [DocsController] })
export class DocsModule {}
