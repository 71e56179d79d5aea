#!/usr/bin/env node
// Generations a second of the WebGL2 page in headless Chromium (docs/web.md), with the
// per-pass times of EXT_disjoint_timer_query_webgl2 where the browser offers it:
//   node tests/web/bench_web.mjs BUILD_DIR [query ...]
// Each query sets the page's controls (default: camel 64x64 per-bit, then skip). 100
// generations after 5 untimed ones; the loop reads the fitness back every generation, as
// the page's curve does. Not a test: nothing is asserted.
import {createRequire} from 'node:module';
import {dirname, join, resolve} from 'node:path';
import {fileURLToPath, pathToFileURL} from 'node:url';
import {loadavg} from 'node:os';

const here = dirname(fileURLToPath(import.meta.url));
const puppeteer = createRequire(join(here, 'package.json'))('puppeteer-core');
const build = resolve(process.argv[2] || join(here, '../../build'));
const queries = process.argv.length > 3 ? process.argv.slice(3)
  : ['problem=camel&grid=64x64', 'problem=camel&grid=64x64&mutation=skip'];
const browser = await puppeteer.launch({
  executablePath: process.env.CHROMIUM || '/usr/bin/chromium', headless: true,
  args: ['--no-sandbox', '--use-angle=swiftshader', '--enable-unsafe-swiftshader',
         ...(process.env.CHROMIUM_ARGS ? process.env.CHROMIUM_ARGS.split(' ') : [])]});
const page = await browser.newPage();
const url = pathToFileURL(join(build, 'web/index.html')).href;
for (const q of queries) {
  await page.goto(`${url}?${q}`);
  if (!(await page.evaluate(() => window.glevoApp.ready))) throw new Error(`${q}: page did not start`);
  const ms = await page.evaluate(() => {
    glevoApp.run(5);
    const t0 = performance.now();
    glevoApp.run(100);
    return performance.now() - t0;
  });
  const prof = await page.evaluate(() => glevoApp.profile(10));
  const renderer = await page.evaluate(() => glevoApp.renderer);
  console.log(`${q}: ${(100000 / ms).toFixed(1)} generations/s (load average ` +
              `${loadavg()[0].toFixed(1)}; ${renderer})`);
  console.log(`  per pass, us (${prof.source}): ` +
              prof.rows.map((r) => `${r.pass} ${r.us.toFixed(0)}`).join(', '));
}
await browser.close();
