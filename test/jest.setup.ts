import { Logger } from '@nestjs/common';

// Nest's default console logger is for humans; tests stay quiet unless TEST_LOG_LEVEL asks otherwise.
if (!process.env.TEST_LOG_LEVEL) Logger.overrideLogger(false);
