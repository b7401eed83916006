#!/usr/bin/env node
/**
 * The installed app's icons (web app manifest, Apple touch icon), drawn from public/favicon.svg by
 * Chromium so that they always match it. Run after changing the favicon; the PNGs are committed.
 *   node frontend/scripts/pwa-icons.mjs
 * Writes public/icons/icon-{192,512}.png (the favicon as it is), icon-maskable-512.png (full-bleed
 * background, the bars inside the central 80% safe zone that launchers may crop to a circle) and
 * apple-touch-icon.png (180 px, square: iOS rounds the corners itself).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const here = dirname(fileURLToPath(import.meta.url));
const publicDir = resolve(here, '../public');
const favicon = readFileSync(join(publicDir, 'favicon.svg'), 'utf8');
// The favicon without its rounded corners: a square tile for maskable and Apple icons.
const square = favicon.replace(/ rx="\d+"/, '');
// The same tile with the bars scaled into the safe zone (a circle of 80% of the size).
const maskable = square.replace(/<path /, '<path transform="translate(32 32) scale(0.75) translate(-32 -31)" ');

const icons = [
  { file: 'icon-192.png', size: 192, svg: favicon },
  { file: 'icon-512.png', size: 512, svg: favicon },
  { file: 'icon-maskable-512.png', size: 512, svg: maskable },
  { file: 'apple-touch-icon.png', size: 180, svg: square },
];

const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: ['--no-sandbox'] });
try {
  const page = await browser.newPage();
  for (const { file, size, svg } of icons) {
    await page.setViewportSize({ width: size, height: size });
    const sized = svg.replace('<svg ', `<svg width="${size}" height="${size}" `);
    await page.setContent(`<html><body style="margin:0;background:transparent">${sized}</body></html>`);
    const png = await page.locator('svg').screenshot({ omitBackground: true });
    writeFileSync(join(publicDir, 'icons', file), png);
    console.log(`pwa-icons: public/icons/${file} (${size}x${size}, ${png.length} bytes)`);
  }
} finally {
  await browser.close();
}
