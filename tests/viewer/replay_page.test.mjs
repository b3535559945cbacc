// End-to-end test of a replay page written by hopsim in headless Chromium:
//
//   HOPSIM_VIEWER_NODE_MODULES=DIR HOPSIM_VIEWER_PAGE=run.html HOPSIM_VIEWER_CSV=run.csv \
//     node --test tests/viewer/replay_page.test.mjs
//
// The CSV is the recording of the run the page replays, read here independently of the page:
// the poses the page's scene graph shows must be the recorded ones to 1e-9, interpolated
// between samples; the screenshot must show the bodies where the scene projects them and the
// background elsewhere; and the page must work offline without errors.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  decodePng, launchBrowser, openReplayPage, readRecordingCsv, recordedBodyPoses, requireEnv,
} from './support.mjs';

const PAGE = requireEnv('HOPSIM_VIEWER_PAGE');
const CSV = requireEnv('HOPSIM_VIEWER_CSV');
const TOLERANCE = 1e-9;

// Sample indices to visit: both ends, their neighbours and points in between.
function chosenSamples(n) {
  const picks = [0, 1, Math.floor(n / 4), Math.floor(n / 2), Math.floor((3 * n) / 4), n - 2, n - 1];
  return [...new Set(picks.filter((i) => i >= 0 && i < n))].sort((a, b) => a - b);
}

function assertClose(actual, expected, what) {
  assert.equal(actual.length, expected.length, what);
  for (let k = 0; k < expected.length; ++k) {
    assert.ok(Math.abs(actual[k] - expected[k]) <= TOLERANCE,
      `${what}: [${actual}] differs from [${expected}] in component ${k} by ${actual[k] - expected[k]}`);
  }
}

// q and -q are the same rotation: compare with the sign that makes them closest.
function assertSameRotation(actual, expected, what) {
  const dot = actual.reduce((sum, v, k) => sum + v * expected[k], 0);
  assertClose(dot < 0 ? actual.map((v) => -v) : actual, expected, what);
}

// v rotated by the scalar-first unit quaternion q.
function rotate(q, v) {
  const [w, x, y, z] = q;
  const tx = 2 * (y * v[2] - z * v[1]);
  const ty = 2 * (z * v[0] - x * v[2]);
  const tz = 2 * (x * v[1] - y * v[0]);
  return [
    v[0] + w * tx + (y * tz - z * ty),
    v[1] + w * ty + (z * tx - x * tz),
    v[2] + w * tz + (x * ty - y * tx),
  ];
}

// Radius of a sphere about the shape's frame origin that holds the whole shape.
function shapeRadius(shape) {
  switch (shape.type) {
    case 'box': return 0.5 * Math.hypot(...shape.size);
    case 'sphere': return shape.radius;
    case 'cylinder': return Math.hypot(shape.radius, 0.5 * shape.length);
    case 'capsule': return shape.radius + 0.5 * shape.length;
    case 'mesh': {
      let max = 0;
      for (let i = 0; i < shape.vertices.length; i += 3) {
        max = Math.max(max, Math.hypot(shape.vertices[i], shape.vertices[i + 1], shape.vertices[i + 2]));
      }
      return max * (shape.scale ?? 1);
    }
    default: throw new Error(`unknown shape type ${shape.type}`);
  }
}

describe(`replay page ${PAGE}`, () => {
  let browser;
  let page;
  let problems;
  let csv;
  let recorded;
  const api = (method, ...args) => page.evaluate(([m, a]) => window.hopsimViewer[m](...a), [method, args]);

  before(async () => {
    csv = readRecordingCsv(CSV);
    recorded = recordedBodyPoses(csv);
    assert.ok(recorded.size > 0, `${CSV} records no body poses (multibody.bodies.<B>.position[0])`);
    browser = await launchBrowser();
    ({ page, problems } = await openReplayPage(browser, PAGE));
  });

  after(async () => {
    await browser?.close();
  });

  it('shows every recorded body and the recorded time range', async () => {
    const names = await api('bodyNames');
    for (const body of recorded.keys()) assert.ok(names.includes(body), `the page has no body ${body} (it has ${names})`);
    const range = await page.evaluate(() => [window.hopsimViewer.startTime, window.hopsimViewer.endTime]);
    assert.deepEqual(range, [csv.time[0], csv.time.at(-1)]);
  });

  it('poses at sample times are the recorded poses', async () => {
    for (const i of chosenSamples(csv.time.length)) {
      const t = csv.time[i];
      await api('setTime', t);
      assert.equal(await api('time'), t);
      for (const [body, poses] of recorded) {
        const expected = poses.at(i);
        const actual = await api('bodyPose', body);
        assertClose(actual.position, expected.position, `${body} position at t = ${t}`);
        assertSameRotation(actual.quaternion, expected.quaternion, `${body} orientation at t = ${t}`);
      }
    }
  });

  it('between samples the pose is interpolated', async () => {
    const i = Math.floor(csv.time.length / 2) - 1;
    const t = 0.5 * (csv.time[i] + csv.time[i + 1]);
    await api('setTime', t);
    for (const [body, poses] of recorded) {
      const a = poses.at(i);
      const b = poses.at(i + 1);
      const actual = await api('bodyPose', body);
      assertClose(actual.position, a.position.map((v, k) => 0.5 * (v + b.position[k])), `${body} position midway`);
      // Halfway along the shorter arc is the normalised sum of the sign-aligned ends.
      const sign = a.quaternion.reduce((s, v, k) => s + v * b.quaternion[k], 0) < 0 ? -1 : 1;
      const sum = a.quaternion.map((v, k) => v + sign * b.quaternion[k]);
      const norm = Math.hypot(...sum);
      assertSameRotation(actual.quaternion, sum.map((v) => v / norm), `${body} orientation midway`);
    }
  });

  it('the screenshot shows each body where the scene projects it and background elsewhere', async () => {
    const i = Math.floor(csv.time.length / 3);
    // Only the shapes: lines of the grid, axes, frames, springs and arrows may cross any
    // point that is checked for background.
    for (const toggle of ['grid', 'axes', 'frames', 'hinges', 'springs', 'arrows']) {
      await api('setToggle', toggle, false);
    }
    await api('setTime', csv.time[i]);
    const background = await page.evaluate(() => window.hopsimViewer.backgroundColor);
    const png = decodePng(await page.screenshot());
    const pixel = ([x, y]) => {
      const o = 4 * (Math.round(y) * png.width + Math.round(x));
      return [png.data[o], png.data[o + 1], png.data[o + 2]];
    };
    const differs = (rgb, tolerance) => rgb.some((v, k) => Math.abs(v - background[k]) > tolerance);

    for (const body of recorded.keys()) {
      const point = await api('bodyScreenPoint', body);
      assert.ok(differs(pixel(point), 12), `${body}: the pixel at its screen point ${point} is background`);
    }

    // Screen boxes that hold each body: every shape's bounding sphere, placed by the body's
    // pose (recorded, or the scene's for bodies fixed to the world), projected by its cube.
    const data = await page.evaluate(() => JSON.parse(document.getElementById('hopsim-replay').textContent).bodies);
    const corners = [];
    for (const body of data) {
      const pose = recorded.has(body.name) ? recorded.get(body.name).at(i) : await api('bodyPose', body.name);
      for (const shape of body.shapes ?? []) {
        const offset = rotate(pose.quaternion, shape.position ?? [0, 0, 0]);
        const centre = pose.position.map((v, k) => v + offset[k]);
        const r = shapeRadius(shape);
        const cube = [];
        for (let c = 0; c < 8; ++c) cube.push(centre.map((v, k) => v + (c & (1 << k) ? r : -r)));
        corners.push(cube);
      }
    }
    const boxes = await page.evaluate((cubes) => cubes.map((cube) => {
      const points = cube.map((p) => window.hopsimViewer.screenPoint(p));
      const xs = points.map((p) => p[0]);
      const ys = points.map((p) => p[1]);
      return [Math.min(...xs), Math.min(...ys), Math.max(...xs), Math.max(...ys)];
    }), corners);
    const margin = 6;
    const clear = ([x, y]) => boxes.every(([x0, y0, x1, y1]) =>
      x < x0 - margin || x > x1 + margin || y < y0 - margin || y > y1 + margin);

    // Candidates on a grid over the 3D view; those clear of every body must be background.
    const view = await page.evaluate(() => {
      const r = document.getElementById('scene-canvas').getBoundingClientRect();
      return [r.left, r.top, r.width, r.height];
    });
    const candidates = [];
    for (let gx = 0; gx <= 8; ++gx) {
      for (let gy = 0; gy <= 6; ++gy) {
        candidates.push([view[0] + 12 + gx * (view[2] - 24) / 8, view[1] + 12 + gy * (view[3] - 24) / 6]);
      }
    }
    const empty = candidates.filter(clear);
    assert.ok(empty.length >= 3, `fewer than 3 of ${candidates.length} test points are clear of the bodies`);
    for (const point of empty) {
      assert.ok(!differs(pixel(point), 3), `the pixel at ${point}, clear of every body, is ${pixel(point)}, ` +
        `not the background ${background}`);
      assert.equal(await api('pick', ...point), null, `pick at ${point}, clear of every body`);
    }
  });

  // A time of the run at which the body's first shape is not behind another body (a crank
  // inside its rod at t = 0, say), and its screen point then.
  async function visibleAt(body) {
    for (const i of chosenSamples(csv.time.length)) {
      await api('setTime', csv.time[i]);
      const [x, y] = await api('bodyScreenPoint', body);
      if (await api('pick', x, y) === body) return [csv.time[i], x, y];
    }
    return null;
  }

  it('picking at a body returns that body', async () => {
    for (const body of recorded.keys()) {
      assert.ok(await visibleAt(body), `no time at which pick() at ${body}'s shape returns it`);
    }
  });

  it('the controls work: play, toggles, camera presets, plots, picking by click', async () => {
    await api('setTime', csv.time[0]);
    await page.click('#play');
    await page.waitForFunction((t0) => window.hopsimViewer.time() > t0, csv.time[0]);
    await page.click('#play');
    const paused = await api('time');
    await page.waitForTimeout(100);
    assert.equal(await api('time'), paused, 'the second click pauses');

    for (const box of await page.$$('#toggles input')) {
      await box.click();
      await box.click();
    }
    const toggles = await api('toggles');
    assert.deepEqual(Object.keys(toggles).sort(), ['arrows', 'axes', 'frames', 'grid', 'hinges', 'shapes', 'springs']);

    for (const name of await api('cameraPresets')) {
      await page.click(`#camera-presets button[data-preset="${name}"]`);
    }
    await api('setCameraPreset', 'fit');

    // Filter the column list to one body's x position, plot it, and seek by clicking the plot.
    const body = [...recorded.keys()][0];
    const column = `multibody.bodies.${body}.position[0]`;
    await page.fill('#column-filter', `${body}.position[0]`);
    await page.selectOption('#column-list', column);
    await page.click('#column-add');
    assert.ok((await api('plottedColumns')).includes(column));
    const plot = page.locator('.plot', { hasText: column }).locator('canvas');
    const box = await plot.boundingBox();
    await plot.click({ position: { x: box.width / 2, y: box.height / 2 } });
    const middle = 0.5 * (csv.time[0] + csv.time.at(-1));
    assert.ok(Math.abs((await api('time')) - middle) < 0.02 * (csv.time.at(-1) - csv.time[0]),
      'a click in the middle of a plot seeks to the middle of the run');

    for (const toggle of ['grid', 'axes', 'frames', 'hinges', 'springs', 'arrows', 'shapes']) {
      await api('setToggle', toggle, true);
    }
    const [, x, y] = await visibleAt(body);
    await page.mouse.click(x, y);
    assert.equal(await api('selectedBody'), body);
    assert.equal(await page.textContent('#pick-name'), body);
  });

  it('made no network request and logged no error', () => {
    assert.deepEqual(problems.requests, [], 'network requests');
    assert.deepEqual(problems.pageErrors, [], 'page errors');
    assert.deepEqual(problems.consoleErrors, [], 'console errors');
  });
});
