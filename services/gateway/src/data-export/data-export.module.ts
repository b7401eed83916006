import { Module } from '@nestjs/common';
import { SessionsModule } from '../sessions/sessions.module';
import { DataExportController } from './data-export.controller';

/** The account's data export, gathered from every service that holds some of it. */
@Module({
  imports: [SessionsModule],
  controllers: [DataExportController],
})
export class DataExportModule {}
