import { AuthModule } from './auth/auth.module';

/** The gateway's feature modules: one line per feature folder. */
export const FEATURE_MODULES = [AuthModule];
