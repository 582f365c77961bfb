// Load a lanai-run timeline into speedscope (a trace viewer that imports the
// Chrome trace-event format) in headless Chromium; print what it shows.
const { chromium } = require('playwright-core');
(async () => {
  const [port, file, shot] = process.argv.slice(2);
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox'] });
  const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
  const errors = [];
  page.on('pageerror', e => errors.push(String(e)));
  page.on('console', m => { if (m.type() === 'error') errors.push(m.text()); });
  await page.goto(`http://127.0.0.1:${port}/index.html#profileURL=http://127.0.0.1:${port}/${file}`);
  await page.waitForTimeout(4000);
  const text = await page.evaluate(() => document.body.innerText);
  await page.screenshot({ path: shot });
  console.log(JSON.stringify({ title: await page.title(), text: text.slice(0, 400), errors }));
  await browser.close();
})();
