// Playwright harness: serves the repo's demo folders on 127.0.0.1 (scripts/serve.mjs), launches
// Debian's headless Chromium through playwright-core, records every request the page makes, and
// saves screenshots under test-results/.
import { mkdirSync } from 'node:fs';
import { join, resolve, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { startServer } from '../../scripts/serve.mjs';
import { bundleDemos } from '../../scripts/bundle-demos.mjs';

export const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
export const resultsDir = join(repoRoot, 'test-results');

export const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync'];

/**
 * Runs fn({browser, page, url, requests, consoleErrors, screenshot}) with a fresh server and browser.
 * `requests` collects every URL the page (and its workers) asked for. The pages load the demo bundles,
 * rebuilt first when a source is newer (scripts/bundle-demos.mjs).
 */
export async function withPage(fn, { viewport = { width: 1280, height: 800 }, extraAllowed = [] } = {}) {
  mkdirSync(resultsDir, { recursive: true });
  await bundleDemos();
  const server = await startServer({ port: 0, quiet: true, extraAllowed });
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', headless: true, args: CHROMIUM_ARGS });
  try {
    const context = await browser.newContext({ viewport });
    const page = await context.newPage();
    const requests = [];
    const consoleErrors = [];
    context.on('request', (r) => requests.push(r.url()));
    page.on('console', (m) => { if (m.type() === 'error') consoleErrors.push(m.text()); });
    page.on('pageerror', (e) => consoleErrors.push(String(e)));
    const screenshot = (name) => page.screenshot({ path: join(resultsDir, `${name}.png`), fullPage: true });
    return await fn({ browser, context, page, url: server.url, requests, consoleErrors, screenshot });
  } finally {
    await browser.close();
    await server.close();
  }
}
