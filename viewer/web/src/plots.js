// Plots of recorded columns against time beside the 3D view: a filterable column list, one
// canvas per plotted column, a cursor at the current time, and click/drag in a plot to seek.
// Each curve is drawn once into an offscreen canvas; a time change only copies it back and
// draws the cursor.
import { sampleColumn } from './data.js';

const MARGIN = { left: 4, right: 4, top: 4, bottom: 16 };
const CURVE_COLOR = '#1f5fbf';
const CURSOR_COLOR = '#d23c2a';
const TEXT_COLOR = '#5a6270';
const FRAME_COLOR = '#c9ced6';

function formatValue(v) {
  if (!Number.isFinite(v)) return String(v);
  const a = Math.abs(v);
  return a !== 0 && (a < 1e-3 || a >= 1e5) ? v.toExponential(3) : v.toPrecision(5);
}

// Text on a plot; inside the frame it gets a backdrop so that the curve does not run through it.
function label(ctx, text, x, y, align, baseline, backdrop) {
  ctx.textAlign = align;
  ctx.textBaseline = baseline;
  if (backdrop) {
    const metrics = ctx.measureText(text);
    const w = metrics.width;
    const h = metrics.actualBoundingBoxAscent + metrics.actualBoundingBoxDescent;
    const x0 = align === 'right' ? x - w : x;
    const y0 = baseline === 'bottom' ? y - h : y;
    ctx.fillStyle = 'rgba(255, 255, 255, 0.8)';
    ctx.fillRect(x0 - 2, y0 - 2, w + 4, h + 4);
  }
  ctx.fillStyle = TEXT_COLOR;
  ctx.fillText(text, x, y);
}

class Plot {
  constructor(panel, name) {
    this.panel = panel;
    this.name = name;
    this.values = panel.replay.column(name);
    let min = Infinity;
    let max = -Infinity;
    for (const v of this.values) {
      if (v < min) min = v;
      if (v > max) max = v;
    }
    if (!(min <= max)) {
      min = -1;
      max = 1;
    } else if (min === max) {
      const pad = Math.abs(min) > 0 ? 0.1 * Math.abs(min) : 1;
      min -= pad;
      max += pad;
    }
    this.min = min;
    this.max = max;

    const doc = panel.container.ownerDocument;
    this.element = doc.createElement('div');
    this.element.className = 'plot';
    const header = doc.createElement('div');
    header.className = 'plot-header';
    const title = doc.createElement('span');
    title.className = 'plot-title';
    const unit = panel.replay.unit(name);
    title.textContent = unit ? `${name} [${unit}]` : name;
    title.title = title.textContent;
    this.readout = doc.createElement('span');
    this.readout.className = 'plot-value';
    const close = doc.createElement('button');
    close.type = 'button';
    close.className = 'plot-close';
    close.title = 'Remove this plot';
    close.textContent = '\u00d7';
    close.addEventListener('click', () => panel.remove(name));
    header.append(title, this.readout, close);
    this.canvas = doc.createElement('canvas');
    this.canvas.className = 'plot-canvas';
    this.element.append(header, this.canvas);
    this.curve = doc.createElement('canvas');

    // Click seeks; dragging with the button held scrubs.
    const seek = (event) => {
      const rect = this.canvas.getBoundingClientRect();
      const width = rect.width - MARGIN.left - MARGIN.right;
      const s = Math.min(1, Math.max(0, (event.clientX - rect.left - MARGIN.left) / width));
      const replay = panel.replay;
      panel.onSeek(replay.startTime + s * (replay.endTime - replay.startTime));
    };
    this.canvas.addEventListener('pointerdown', (event) => {
      this.canvas.setPointerCapture(event.pointerId);
      seek(event);
    });
    this.canvas.addEventListener('pointermove', (event) => {
      if (event.buttons & 1) seek(event);
    });
  }

  // Redraws the curve for the canvas's current size (device pixels).
  layout() {
    const ratio = window.devicePixelRatio || 1;
    const width = Math.max(1, Math.round(this.canvas.clientWidth * ratio));
    const height = Math.max(1, Math.round(this.canvas.clientHeight * ratio));
    if (width === this.curve.width && height === this.curve.height) return;
    this.canvas.width = this.curve.width = width;
    this.canvas.height = this.curve.height = height;
    this.drawCurve(ratio);
  }

  xOf(t, ratio) {
    const replay = this.panel.replay;
    const width = this.curve.width - (MARGIN.left + MARGIN.right) * ratio;
    return MARGIN.left * ratio + (t - replay.startTime) / (replay.endTime - replay.startTime || 1) * width;
  }

  yOf(v, ratio) {
    const height = this.curve.height - (MARGIN.top + MARGIN.bottom) * ratio;
    return MARGIN.top * ratio + (this.max - v) / (this.max - this.min) * height;
  }

  drawCurve(ratio) {
    const ctx = this.curve.getContext('2d');
    const { width, height } = this.curve;
    const replay = this.panel.replay;
    ctx.clearRect(0, 0, width, height);
    ctx.strokeStyle = FRAME_COLOR;
    ctx.lineWidth = ratio;
    ctx.strokeRect(MARGIN.left * ratio, MARGIN.top * ratio,
      width - (MARGIN.left + MARGIN.right) * ratio, height - (MARGIN.top + MARGIN.bottom) * ratio);
    if (this.min < 0 && this.max > 0) {
      ctx.beginPath();
      ctx.moveTo(MARGIN.left * ratio, this.yOf(0, ratio));
      ctx.lineTo(width - MARGIN.right * ratio, this.yOf(0, ratio));
      ctx.stroke();
    }

    // With more samples than pixel columns, each column draws the range of its samples: spikes
    // stay visible and the cost is bounded by the width, not the recording length.
    const time = replay.time;
    const values = this.values;
    ctx.strokeStyle = CURVE_COLOR;
    ctx.lineWidth = 1.5 * ratio;
    ctx.lineJoin = 'round';
    ctx.beginPath();
    let pen = false;
    let column = -1;
    let low = 0;
    let high = 0;
    const flush = () => {
      if (column < 0) return;
      const yLow = this.yOf(low, ratio);
      const yHigh = this.yOf(high, ratio);
      if (pen) ctx.lineTo(column, yLow); else ctx.moveTo(column, yLow);
      if (yHigh !== yLow) ctx.lineTo(column, yHigh);
      pen = true;
    };
    for (let i = 0; i < time.length; ++i) {
      const v = values[i];
      if (!Number.isFinite(v)) {
        flush();
        column = -1;
        pen = false;
        continue;
      }
      const x = Math.round(this.xOf(time[i], ratio));
      if (x !== column) {
        flush();
        column = x;
        low = high = v;
      } else {
        if (v < low) low = v;
        if (v > high) high = v;
      }
    }
    flush();
    ctx.stroke();

    ctx.font = `${10 * ratio}px sans-serif`;
    const left = (MARGIN.left + 3) * ratio;
    const right = width - (MARGIN.right + 3) * ratio;
    const below = height - (MARGIN.bottom - 3) * ratio;
    label(ctx, formatValue(this.max), left, (MARGIN.top + 2) * ratio, 'left', 'top', true);
    label(ctx, formatValue(this.min), left, height - (MARGIN.bottom + 2) * ratio, 'left', 'bottom', true);
    label(ctx, `${formatValue(replay.startTime)} s`, left, below, 'left', 'top', false);
    label(ctx, `${formatValue(replay.endTime)} s`, right, below, 'right', 'top', false);
  }

  drawCursor(t) {
    const ratio = window.devicePixelRatio || 1;
    const ctx = this.canvas.getContext('2d');
    ctx.clearRect(0, 0, this.canvas.width, this.canvas.height);
    ctx.drawImage(this.curve, 0, 0);
    const x = this.xOf(t, ratio);
    ctx.strokeStyle = CURSOR_COLOR;
    ctx.lineWidth = ratio;
    ctx.beginPath();
    ctx.moveTo(x, MARGIN.top * ratio);
    ctx.lineTo(x, this.canvas.height - MARGIN.bottom * ratio);
    ctx.stroke();
    this.readout.textContent = formatValue(sampleColumn(this.values, this.panel.replay.cursor));
  }
}

export class PlotPanel {
  // container: the side panel; onSeek(t) is called when a plot is clicked.
  constructor(replay, container, onSeek) {
    this.replay = replay;
    this.container = container;
    this.onSeek = onSeek;
    this.plots = new Map();
    this.time = replay.startTime;

    this.filter = container.querySelector('#column-filter');
    this.list = container.querySelector('#column-list');
    this.addButton = container.querySelector('#column-add');
    this.area = container.querySelector('#plots');
    this.fillList('');
    this.filter.addEventListener('input', () => this.fillList(this.filter.value));
    this.filter.addEventListener('keydown', (event) => {
      if (event.key === 'Enter' && this.list.options.length > 0) this.add(this.list.options[0].value);
    });
    this.list.addEventListener('dblclick', () => this.addSelected());
    this.list.addEventListener('keydown', (event) => {
      if (event.key === 'Enter') this.addSelected();
    });
    this.addButton.addEventListener('click', () => this.addSelected());
    new ResizeObserver(() => this.layout()).observe(this.area);
  }

  // Filter words must all occur in a column name, in any order: "rod position" finds
  // multibody.bodies.rod.position[0..2].
  fillList(filter) {
    const words = filter.toLowerCase().split(/\s+/).filter((w) => w.length > 0);
    const doc = this.container.ownerDocument;
    const fragment = doc.createDocumentFragment();
    for (const name of this.replay.columnNames) {
      const lower = name.toLowerCase();
      if (words.every((w) => lower.includes(w))) {
        const option = doc.createElement('option');
        option.value = name;
        option.textContent = name;
        fragment.append(option);
      }
    }
    this.list.replaceChildren(fragment);
  }

  addSelected() {
    for (const option of this.list.selectedOptions) this.add(option.value);
  }

  add(name) {
    if (this.plots.has(name)) return;
    const plot = new Plot(this, name);
    this.plots.set(name, plot);
    this.area.append(plot.element);
    plot.layout();
    plot.drawCursor(this.time);
  }

  remove(name) {
    const plot = this.plots.get(name);
    if (!plot) return;
    plot.element.remove();
    this.plots.delete(name);
  }

  names() {
    return [...this.plots.keys()];
  }

  layout() {
    for (const plot of this.plots.values()) {
      plot.layout();
      plot.drawCursor(this.time);
    }
  }

  // The replay cursor must already be at t (the scene's update puts it there).
  setTime(t) {
    this.time = t;
    for (const plot of this.plots.values()) plot.drawCursor(t);
  }
}
