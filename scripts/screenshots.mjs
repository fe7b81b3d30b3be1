#!/usr/bin/env node
// Takes the README's demo screenshots (docs/images/*.png) in headless Chromium against the demo server,
// after one real action on each page (doc chat answers a question on the sample corpus, the chunking
// playground shows its A/B comparison, the metrics classroom its live values).
//   node scripts/screenshots.mjs      (needs web/dist and models/build: `npm start` or scripts/build-assets.mjs)
// The PNGs are reduced to a 128-colour palette with `sharp` when it is installed (a dependency of
// @huggingface/transformers, a devDependency); without it they stay full-colour.
import { mkdirSync, renameSync, statSync } from 'node:fs';
import { join, resolve, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { startServer } from './serve.mjs';
import { bundleDemos } from './bundle-demos.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const outDir = join(root, 'docs/images');
mkdirSync(outDir, { recursive: true });

const state = (page, states, timeout = 60000) => page.waitForFunction(
  (s) => s.includes(document.getElementById('status').dataset.state) || document.getElementById('status').classList.contains('err'),
  states, { timeout });

const shots = {
  async chat(page, url) {
    await page.goto(`${url}web/demo/chat.html`);
    await state(page, ['done']);
    await page.click('#sample');
    await page.waitForFunction(() => /^ready: 26 documents/.test(document.getElementById('status').textContent), null, { timeout: 60000 });
    await page.fill('#question', 'How many days of paid time off do full-time U.S. employees get per year?');
    await page.click('#ask-btn');
    await state(page, ['answered', 'failed']);
    await page.click('#answer a.cite[data-n="1"]');
    await page.evaluate(() => window.scrollTo(0, 0));
    const answer = await page.textContent('#answer');
    if (!/22 days/.test(answer)) throw new Error(`screenshots: doc chat answered ${JSON.stringify(answer)}`);
  },
  async chunking(page, url) {
    await page.goto(`${url}web/demo/chunking.html`);
    await state(page, ['done']);
    if (!/^done/.test(await page.textContent('#status'))) throw new Error('screenshots: the chunking playground did not finish');
    await page.evaluate(() => window.scrollTo(0, document.getElementById('results').getBoundingClientRect().top + window.scrollY - 8));
  },
  async metrics(page, url) {
    await page.goto(`${url}web/demo/metrics.html`);
    await state(page, ['done']);
    await page.click('#ranking li[data-doc="travel-expense-policy"] button[data-g="3"]');
    await state(page, ['done']);
    await page.evaluate(() => window.scrollTo(0, document.getElementById('m-h').getBoundingClientRect().top + window.scrollY - 8));
  },
};

const sharp = await import('sharp').then((m) => m.default, () => null);
await bundleDemos();
const server = await startServer({ port: 0, quiet: true });
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', headless: true,
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'] });
try {
  for (const [name, act] of Object.entries(shots)) {
    const page = await (await browser.newContext({ viewport: { width: 1200, height: 820 } })).newPage();
    await act(page, server.url);
    const file = join(outDir, `${name}.png`);
    await page.screenshot({ path: file });
    if (sharp) {
      await sharp(file).png({ palette: true, colors: 128, compressionLevel: 9 }).toFile(`${file}.tmp`);
      renameSync(`${file}.tmp`, file);
    }
    console.log(`${file}: ${statSync(file).size} bytes`);
  }
} finally {
  await browser.close();
  await server.close();
}
