// Load-time acceptance: a replay page opens in under 2 s. The page given should be
// the large case, a 10 s run of a 30-body model at 100 frames per second:
//
//   HOPSIM_VIEWER_NODE_MODULES=DIR HOPSIM_VIEWER_PAGE=big.html node --test tests/viewer/load_time.test.mjs
//
// "Opens" is the viewer's readyTime: from the start of navigation until the scene is built and
// its first frame rendered (the page's plots included).
import assert from 'node:assert/strict';
import { statSync } from 'node:fs';
import { after, before, it } from 'node:test';
import { launchBrowser, openReplayPage, requireEnv } from './support.mjs';

const PAGE = requireEnv('HOPSIM_VIEWER_PAGE');
const LIMIT_MS = 2000;

let browser;
before(async () => {
  browser = await launchBrowser();
});
after(async () => {
  await browser?.close();
});

it(`${PAGE} is ready in under ${LIMIT_MS} ms`, async () => {
  const { page, problems, readyTime } = await openReplayPage(browser, PAGE);
  const size = await page.evaluate(() => {
    const viewer = window.hopsimViewer;
    const data = JSON.parse(document.getElementById('hopsim-replay').textContent);
    return {
      bodies: viewer.bodyNames().length,
      samples: data.recording.time.length,
      columns: Object.keys(data.recording.columns).length,
    };
  });
  const megabytes = (statSync(PAGE).size / 1e6).toFixed(1);
  console.log(`viewer load time: ${readyTime.toFixed(0)} ms for ${size.bodies} bodies, ${size.samples} ` +
    `samples, ${size.columns} columns (${megabytes} MB page)`);
  // The acceptance case or larger: otherwise the limit proves nothing.
  assert.ok(size.bodies >= 30 && size.samples >= 1001,
    `expected a page of at least 30 bodies and 1001 samples, got ${size.bodies} and ${size.samples}`);
  assert.ok(readyTime < LIMIT_MS, `ready after ${readyTime.toFixed(0)} ms, limit ${LIMIT_MS} ms`);
  assert.deepEqual(problems, { consoleErrors: [], pageErrors: [], requests: [] });
});
