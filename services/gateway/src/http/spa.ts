import fs from 'node:fs';
import path from 'node:path';
import express, { type Express } from 'express';
import { Logger } from '@nestjs/common';

const API_PREFIXES = ['/api', '/webhooks', '/sandbox', '/health'];

/** Serves the built SPA: hashed assets cached for a year, every other page path answered by index.html. */
export function serveSpa(app: Express, dir: string): void {
  const index = path.join(dir, 'index.html');
  if (!fs.existsSync(index)) {
    new Logger('Spa').warn(`no built SPA at ${dir}; run "npm run build" to serve the web app`);
    return;
  }
  app.use('/assets', express.static(path.join(dir, 'assets'), { immutable: true, maxAge: '365d', index: false }));
  app.use(express.static(dir, { index: false, maxAge: 0 }));
  app.get(/.*/, (req, res, next) => {
    if (API_PREFIXES.some((p) => req.path === p || req.path.startsWith(`${p}/`))) return next();
    res.setHeader('Cache-Control', 'no-cache');
    res.sendFile(index);
  });
}
