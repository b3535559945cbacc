// Shared by the replay page tests: headless Chromium through playwright-core, a page opened
// offline with every network request refused and recorded, and the recording CSV parsed
// independently of the page.
import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

// The node_modules installed from viewer/web/package-lock.json. ESM ignores NODE_PATH, so the
// packages are loaded through a require rooted there.
function nodeModules() {
  const dir = process.env.HOPSIM_VIEWER_NODE_MODULES;
  if (!dir) throw new Error('set HOPSIM_VIEWER_NODE_MODULES to the node_modules of viewer/web/package-lock.json');
  return createRequire(`${path.resolve(dir)}/`);
}

export function requireEnv(name) {
  const value = process.env[name];
  if (!value) throw new Error(`set ${name}`);
  return value;
}

export const CHROMIUM = process.env.HOPSIM_VIEWER_CHROMIUM || '/usr/bin/chromium';

// Headless without a GPU: WebGL runs on SwiftShader through ANGLE, which Chromium no longer
// falls back to silently. The rest keeps the browser from reaching the network by itself.
export const LAUNCH_ARGS = [
  '--headless', '--no-sandbox', '--disable-gpu', '--use-angle=swiftshader', '--enable-unsafe-swiftshader',
  '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update',
  '--disable-sync',
];

export const VIEWPORT = { width: 1280, height: 800 };

export async function launchBrowser() {
  const { chromium } = nodeModules()('playwright-core');
  return chromium.launch({ executablePath: CHROMIUM, args: LAUNCH_ARGS });
}

export function decodePng(buffer) {
  const { PNG } = nodeModules()('pngjs');
  return PNG.sync.read(buffer);
}

// Opens the page file and waits for the viewer's `ready`. `problems` collects console errors,
// uncaught page errors and every request that is not for a file: URL (refused), for the test
// to assert empty at the end.
export async function openReplayPage(browser, file) {
  const context = await browser.newContext({ viewport: VIEWPORT, deviceScaleFactor: 1 });
  const page = await context.newPage();
  const problems = { consoleErrors: [], pageErrors: [], requests: [] };
  await context.route('**/*', (route) => {
    const url = route.request().url();
    if (url.startsWith('file:')) return route.continue();
    problems.requests.push(url);
    return route.abort('blockedbyclient');
  });
  page.on('console', (message) => {
    if (message.type() === 'error') problems.consoleErrors.push(message.text());
  });
  page.on('pageerror', (error) => problems.pageErrors.push(error.message));
  await page.goto(pathToFileURL(file).href);
  const readyTime = await page.evaluate(() => window.hopsimViewer.ready);
  return { context, page, problems, readyTime };
}

// The recording as written by hopsim: a header of column names, then one row of numbers per
// sample. parseFloat of the recorder's 17 significant digits gives back the recorded doubles.
export function readRecordingCsv(file) {
  const lines = readFileSync(file, 'utf8').split(/\r?\n/).filter((line) => line.length > 0);
  const header = lines[0].split(',');
  const rows = lines.slice(1).map((line) => line.split(',').map((cell) => Number.parseFloat(cell)));
  const column = (name) => {
    const k = header.indexOf(name);
    if (k < 0) throw new Error(`${file} has no column ${name}`);
    return rows.map((row) => row[k]);
  };
  return { header, rows, column, time: column('time') };
}

// Bodies whose pose the recording holds: multibody.bodies.<B>.position[0..2] and
// .orientation[0..3] (scalar first), per sample.
export function recordedBodyPoses(csv) {
  const bodies = new Map();
  for (const name of csv.header) {
    const match = /^multibody\.bodies\.(.+)\.position\[0\]$/.exec(name);
    if (!match) continue;
    const body = match[1];
    const prefix = `multibody.bodies.${body}`;
    const position = [0, 1, 2].map((k) => csv.column(`${prefix}.position[${k}]`));
    const orientation = [0, 1, 2, 3].map((k) => csv.column(`${prefix}.orientation[${k}]`));
    bodies.set(body, {
      at: (i) => ({ position: position.map((c) => c[i]), quaternion: orientation.map((c) => c[i]) }),
    });
  }
  return bodies;
}
