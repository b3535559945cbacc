// The replay data (format v1, docs/viewer.md): parsing, validation and the sampled tracks the
// scene reads every frame. Everything here is plain numbers: no three.js, so that the exact-copy
// rule at sample times (the e2e tests compare poses to 1e-9) lives in one small place.

export const FORMAT = 'hopsim-replay';
export const VERSION = 1;

// Reads and validates the JSON the writer embedded in <script id="hopsim-replay">.
export function readEmbeddedReplay(doc) {
  const element = doc.getElementById('hopsim-replay');
  if (!element) {
    throw new Error('this page has no replay data (no <script id="hopsim-replay">)');
  }
  return parseReplay(element.textContent);
}

export function parseReplay(text) {
  const data = JSON.parse(text);
  if (data.format !== FORMAT) {
    throw new Error(`replay data has format "${data.format}", expected "${FORMAT}"`);
  }
  if (data.version !== VERSION) {
    throw new Error(`replay data has version ${data.version}; this viewer reads version ${VERSION}`);
  }
  return new Replay(data);
}

// JSON has no NaN: a writer that meets one writes null. Number(null) would be 0, a plausible
// value that would draw a wrong pose, so null becomes NaN explicitly.
function toFloat64(values, name) {
  if (!Array.isArray(values)) {
    throw new Error(`recording column "${name}" is not an array`);
  }
  const out = new Float64Array(values.length);
  for (let i = 0; i < values.length; ++i) {
    const v = values[i];
    out[i] = v === null ? NaN : v;
  }
  return out;
}

export class Replay {
  constructor(data) {
    this.data = data;
    this.title = String(data.title ?? '');
    this.source = String(data.source ?? '');
    this.up = normalized(data.up ?? [0, 0, 1]);
    this.lengthScale = data.lengthScale > 0 ? data.lengthScale : 1;
    this.camera = data.camera ?? null;
    this.bodies = data.bodies ?? [];
    this.springs = data.springs ?? [];
    this.arrows = data.arrows ?? [];
    this.plots = data.plots ?? [];

    const recording = data.recording;
    if (!recording || !Array.isArray(recording.time) || recording.time.length === 0) {
      throw new Error('replay data has no recorded samples');
    }
    this.time = toFloat64(recording.time, 'time');
    for (let i = 1; i < this.time.length; ++i) {
      if (!(this.time[i] > this.time[i - 1])) {
        throw new Error(`recording time is not strictly increasing at sample ${i}`);
      }
    }
    this.rawColumns = recording.columns ?? {};
    this.units = recording.units ?? {};
    this.columnNames = Object.keys(this.rawColumns).sort();
    // Columns are converted on first use: a run logs hundreds of columns and the page needs
    // only the pose, arrow and plotted ones, so converting all of them would cost load time.
    this.converted = new Map();
    this.cursor = new SampleCursor(this.time);
  }

  get startTime() {
    return this.time[0];
  }

  get endTime() {
    return this.time[this.time.length - 1];
  }

  hasColumn(name) {
    return Object.prototype.hasOwnProperty.call(this.rawColumns, name);
  }

  column(name) {
    let values = this.converted.get(name);
    if (values === undefined) {
      if (!this.hasColumn(name)) {
        throw new Error(`recording has no column "${name}"`);
      }
      values = toFloat64(this.rawColumns[name], name);
      if (values.length !== this.time.length) {
        throw new Error(`recording column "${name}" has ${values.length} values for ` +
          `${this.time.length} samples`);
      }
      this.converted.set(name, values);
    }
    return values;
  }

  unit(name) {
    return this.units[name] ?? '';
  }
}

function normalized(v) {
  const n = Math.hypot(v[0], v[1], v[2]);
  if (!(n > 0)) {
    throw new Error(`"up" [${v}] is not a direction`);
  }
  return [v[0] / n, v[1] / n, v[2] / n];
}

// Where a time falls among the samples: index i and fraction f in [0, 1) of the way to sample
// i + 1. f is exactly 0 at a sample time (and outside the recorded range, clamped), which is
// how the readers below know to copy instead of interpolate.
export class SampleCursor {
  constructor(time) {
    this.times = time;
    this.index = 0;
    this.fraction = 0;
  }

  seek(t) {
    const times = this.times;
    const last = times.length - 1;
    if (!(t > times[0])) {
      this.index = 0;
      this.fraction = 0;
      return;
    }
    if (t >= times[last]) {
      this.index = last;
      this.fraction = 0;
      return;
    }
    // Playback moves forward a little each frame: try the current interval and the next
    // before the binary search.
    let i = this.index;
    if (!(times[i] <= t && t < times[i + 1])) {
      if (i + 2 <= last && times[i + 1] <= t && t < times[i + 2]) {
        i += 1;
      } else {
        let lo = 0;
        let hi = last;  // times[lo] <= t < times[hi]
        while (hi - lo > 1) {
          const mid = (lo + hi) >> 1;
          if (times[mid] <= t) {
            lo = mid;
          } else {
            hi = mid;
          }
        }
        i = lo;
      }
    }
    this.index = i;
    this.fraction = t === times[i] ? 0 : (t - times[i]) / (times[i + 1] - times[i]);
  }
}

// Linear interpolation of one column at the cursor; the sample value itself when f is 0.
export function sampleColumn(values, cursor) {
  const i = cursor.index;
  const f = cursor.fraction;
  if (f === 0) {
    return values[i];
  }
  return values[i] + (values[i + 1] - values[i]) * f;
}

// A moving body's pose at every sample, packed for the frame loop: positions [x, y, z] and
// orientations [w, x, y, z] (scalar first, as recorded) per sample.
export class PoseTrack {
  constructor(replay, body) {
    const pose = body.pose;
    if (!pose || pose.position?.length !== 3 || pose.orientation?.length !== 4) {
      throw new Error(`body "${body.name}" has neither a pose (3 + 4 columns) nor a fixedPose`);
    }
    const n = replay.time.length;
    this.position = new Float64Array(3 * n);
    this.orientation = new Float64Array(4 * n);
    pose.position.forEach((name, k) => {
      const values = replay.column(name);
      for (let i = 0; i < n; ++i) this.position[3 * i + k] = values[i];
    });
    pose.orientation.forEach((name, k) => {
      const values = replay.column(name);
      for (let i = 0; i < n; ++i) this.orientation[4 * i + k] = values[i];
    });
  }

  // Writes the pose at the cursor into position (x, y, z) and quaternion (three.js order x, y,
  // z, w); both are three.js objects or anything with those fields and set().
  write(cursor, position, quaternion) {
    const p = this.position;
    const q = this.orientation;
    const i = cursor.index;
    const f = cursor.fraction;
    const a = 3 * i;
    const b = 4 * i;
    if (f === 0) {
      position.set(p[a], p[a + 1], p[a + 2]);
      quaternion.set(q[b + 1], q[b + 2], q[b + 3], q[b]);
      return;
    }
    position.set(
      p[a] + (p[a + 3] - p[a]) * f,
      p[a + 1] + (p[a + 4] - p[a + 1]) * f,
      p[a + 2] + (p[a + 5] - p[a + 2]) * f);
    slerpInto(q, b, b + 4, f, quaternion);
  }
}

// Spherical linear interpolation between the scalar-first quaternions at offsets i and j of
// q, along the shorter arc (q and -q are the same rotation; recorders may flip sign between
// samples). Writes into a three.js-style quaternion (x, y, z, w).
function slerpInto(q, i, j, f, out) {
  const w0 = q[i], x0 = q[i + 1], y0 = q[i + 2], z0 = q[i + 3];
  let w1 = q[j], x1 = q[j + 1], y1 = q[j + 2], z1 = q[j + 3];
  let cos = w0 * w1 + x0 * x1 + y0 * y1 + z0 * z1;
  if (cos < 0) {
    cos = -cos;
    w1 = -w1; x1 = -x1; y1 = -y1; z1 = -z1;
  }
  let s0;
  let s1;
  if (cos > 0.9999) {
    // Nearly the same rotation: sin(angle) is too small to divide by; a normalised linear
    // blend is indistinguishable there.
    s0 = 1 - f;
    s1 = f;
  } else {
    const angle = Math.acos(cos);
    const sin = Math.sin(angle);
    s0 = Math.sin((1 - f) * angle) / sin;
    s1 = Math.sin(f * angle) / sin;
  }
  const w = s0 * w0 + s1 * w1;
  const x = s0 * x0 + s1 * x1;
  const y = s0 * y0 + s1 * y1;
  const z = s0 * z0 + s1 * z1;
  const n = Math.hypot(w, x, y, z);
  out.set(x / n, y / n, z / n, w / n);
}
