export * from './account.http';
export * from './admin-stats.http';
export * from './auth.http';
export * from './captcha.http';
export * from './user.http';
export * from './redemption.http';
