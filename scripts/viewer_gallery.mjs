#!/usr/bin/env node
// Regenerates the gallery of docs/viewer.md: for each example below, `hopsim run FILE --view`
// writes a replay page into a scratch directory, headless Chromium opens it (the launch helper
// of the browser tests, tests/viewer/support.mjs), seeks a chosen time, sets the camera and
// the plots, and saves a 960x600 screenshot as docs/images/viewer-<example>.png.
//
//   node scripts/viewer_gallery.mjs                      # every example, into docs/images
//   node scripts/viewer_gallery.mjs --only fourbar        # one (repeatable)
//   node scripts/viewer_gallery.mjs --hopsim build/apps/hopsim --out docs/images --keep
//
// HOPSIM_VIEWER_NODE_MODULES is the node_modules of viewer/web/package-lock.json (default: the
// build's, build/viewer/npm/node_modules); HOPSIM_VIEWER_CHROMIUM the browser (default
// /usr/bin/chromium). The pages, CSV files and their sidecars go to a temporary directory,
// removed at the end unless --keep (which prints where it is). Nothing else is written.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { decodePng, launchBrowser, openReplayPage } from '../tests/viewer/support.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const SIZE = { width: 960, height: 600 };
// docs/viewer.md asks for gallery images under about 150 KB each.
const MAX_BYTES = 150 * 1024;

// Each example: its file, extra `hopsim run` options, the time shown, the camera preset (or
// presets in order of preference: the first the page offers is used, and a fallback is
// reported), the toggles changed from the page's defaults and the columns plotted beside the
// view.
const GALLERY = [
  {
    name: 'slider_crank',
    file: 'examples/slider_crank.yaml',
    time: 3.0,
    camera: 'file',
    plots: ['bodies.slider.position.x', 'motors.ground_crank.q[0]'],
  },
  {
    name: 'fourbar',
    file: 'examples/fourbar.yaml',
    args: ['--end', '4'],
    time: 1.2,
    camera: 'front',
    toggles: { hinges: true },
    plots: ['relative_coordinates.0.angle', 'relative_coordinates.1.angle'],
  },
  {
    name: 'slider_pushes_ball',
    file: 'examples/slider_pushes_ball.yaml',
    args: ['--end', '4'],
    time: 1.46,
    camera: 'fit',
    plots: ['bodies.ball.position.x', 'contact.normal_force'],
  },
  {
    name: 'double_pendulum',
    file: 'examples/double_pendulum.yaml',
    args: ['--end', '5'],
    time: 1.7,
    camera: 'side',
    toggles: { frames: true, hinges: true },
    plots: ['multibody.bodies.upper.Q', 'multibody.bodies.lower.Q'],
  },
  {
    name: 'cart_pole_balance',
    file: 'examples/cart_pole_balance.yaml',
    args: ['--end', '4'],
    time: 0.4,
    camera: 'front',
    toggles: { hinges: true },
    plots: ['signals.cp.joints.hinge.q', 'signals.cp.controllers.push'],
  },
];

function fail(message) {
  console.error(`viewer_gallery: ${message}`);
  process.exit(1);
}

function parseArguments(argv) {
  const options = {
    hopsim: path.join(ROOT, 'build/apps/hopsim'),
    out: path.join(ROOT, 'docs/images'),
    only: [],
    keep: false,
  };
  for (let i = 0; i < argv.length; ++i) {
    const key = argv[i];
    if (key === '--keep') {
      options.keep = true;
      continue;
    }
    const value = argv[++i];
    if (value === undefined) fail(`${key} needs a value`);
    if (key === '--hopsim') options.hopsim = path.resolve(value);
    else if (key === '--out') options.out = path.resolve(value);
    else if (key === '--only') options.only.push(value);
    else fail(`unknown argument "${key}" (expected --hopsim, --out, --only NAME, --keep)`);
  }
  const names = GALLERY.map((entry) => entry.name);
  for (const name of options.only) {
    if (!names.includes(name)) fail(`no example "${name}" in the gallery (${names.join(', ')})`);
  }
  return options;
}

// The page and the recording of one example, made in `work`. hopsim runs in the repository
// so that the page's header shows the example's path as the docs give it (examples/...);
// --out sends the recording and its sidecars to `work` instead of a file's logging.file.
function makePage(hopsim, entry, work) {
  const page = path.join(work, `${entry.name}.html`);
  const csv = path.join(work, `${entry.name}.csv`);
  execFileSync(hopsim, ['run', entry.file, ...(entry.args ?? []), '--out', csv, '--view', page,
    '--quiet'], { cwd: ROOT, stdio: ['ignore', 'inherit', 'inherit'] });
  return page;
}

async function shoot(browser, entry, pageFile, pngFile) {
  const { context, page, problems } = await openReplayPage(browser, pageFile);
  try {
    await page.setViewportSize(SIZE);
    // The canvas follows the viewport through a ResizeObserver: let it run before the camera
    // is fitted to the new aspect.
    await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
    const problemsOfPage = await page.evaluate(({ camera, toggles, plots, time }) => {
      const viewer = window.hopsimViewer;
      const missing = [];
      for (const [name, on] of Object.entries(toggles)) viewer.setToggle(name, on);
      const columns = JSON.parse(document.getElementById('hopsim-replay').textContent).recording.columns;
      for (const name of plots) {
        if (name in columns) viewer.addPlot(name); else missing.push(`no column "${name}" to plot`);
      }
      const preset = camera.find((name) => viewer.cameraPresets().includes(name));
      if (preset === undefined) missing.push(`none of the camera presets ${camera} is offered`);
      else viewer.setCameraPreset(preset);
      viewer.setTime(time);
      return { missing, preset };
    }, { camera: [entry.camera].flat(), toggles: entry.toggles ?? {}, plots: entry.plots ?? [], time: entry.time });
    const { missing, preset } = problemsOfPage;
    if (missing.length > 0) throw new Error(missing.join('; '));
    if (preset !== [entry.camera].flat()[0]) {
      console.warn(`viewer_gallery: ${entry.name}: the page has no "${[entry.camera].flat()[0]}" camera; ` +
        `used "${preset}"`);
    }
    const png = await page.screenshot({ type: 'png' });
    const { requests, pageErrors, consoleErrors } = problems;
    if (requests.length + pageErrors.length + consoleErrors.length > 0) {
      throw new Error(`${entry.name}: ${JSON.stringify(problems)}`);
    }
    const image = decodePng(png);
    if (image.width !== SIZE.width || image.height !== SIZE.height) {
      throw new Error(`${entry.name}: the screenshot is ${image.width}x${image.height}`);
    }
    writeFileSync(pngFile, png);
    return preset;
  } finally {
    await context.close();
  }
}

async function main() {
  const options = parseArguments(process.argv.slice(2));
  // The build's node_modules unless the environment names others (support.mjs reads it, and
  // needs an absolute path).
  process.env.HOPSIM_VIEWER_NODE_MODULES = path.resolve(
    process.env.HOPSIM_VIEWER_NODE_MODULES || path.join(ROOT, 'build/viewer/npm/node_modules'));
  try {
    statSync(options.hopsim);
  } catch {
    fail(`no hopsim program at ${options.hopsim} (build it, or give --hopsim PATH)`);
  }
  mkdirSync(options.out, { recursive: true });
  const work = mkdtempSync(path.join(os.tmpdir(), 'hopsim-gallery-'));
  const browser = await launchBrowser();
  let failed = false;
  try {
    for (const entry of GALLERY) {
      if (options.only.length > 0 && !options.only.includes(entry.name)) continue;
      const pngFile = path.join(options.out, `viewer-${entry.name}.png`);
      try {
        const pageFile = makePage(options.hopsim, entry, work);
        const preset = await shoot(browser, entry, pageFile, pngFile);
        const bytes = statSync(pngFile).size;
        const note = bytes > MAX_BYTES ? ` (over the ${MAX_BYTES / 1024} KB budget)` : '';
        console.log(`wrote ${path.relative(process.cwd(), pngFile)}: ${(bytes / 1024).toFixed(0)} KB, ` +
          `t = ${entry.time} s, camera ${preset}${note}`);
      } catch (error) {
        failed = true;
        console.error(`viewer_gallery: ${entry.name}: ${error.message}`);
      }
    }
  } finally {
    await browser.close();
    if (options.keep) console.log(`pages and recordings kept in ${work}`);
    else rmSync(work, { recursive: true, force: true });
  }
  if (failed) process.exit(1);
}

await main();
