// Entry point of the replay page: reads the embedded data, builds the scene and the controls,
// and connects them. Bundled by viewer/build.mjs into the page template.
import { installTestApi } from './api.js';
import { readEmbeddedReplay } from './data.js';
import { Picker } from './picking.js';
import { Playback } from './playback.js';
import { PlotPanel } from './plots.js';
import { BACKGROUND, ReplayScene, TOGGLES } from './scene.js';

const TOGGLE_LABELS = {
  shapes: 'Shapes', frames: 'Frames', hinges: 'Hinge axes', springs: 'Springs',
  arrows: 'Forces', grid: 'Grid', axes: 'World axes',
};
const PRESET_LABELS = { file: 'File', fit: 'Fit', front: 'Front', side: 'Side', top: 'Top' };

class ReplayViewer {
  constructor(replay, doc) {
    this.replay = replay;
    this.doc = doc;
    this.backgroundColor = BACKGROUND;
    const $ = (selector) => doc.querySelector(selector);

    $('#title').textContent = replay.title || 'hopsim replay';
    $('#source').textContent = replay.source;
    doc.title = replay.title ? `${replay.title} \u2013 hopsim replay` : 'hopsim replay';
    doc.documentElement.style.setProperty('--background', `rgb(${BACKGROUND.join(',')})`);

    const viewport = $('#viewport');
    const canvas = $('#scene-canvas');
    this.scene = new ReplayScene(replay, canvas);
    this.scene.resize(Math.max(1, viewport.clientWidth), Math.max(1, viewport.clientHeight));

    this.picker = new Picker(this.scene, canvas, $('#pick-info'));
    this.plots = new PlotPanel(replay, $('#side'), (t) => this.seek(t));
    this.playback = new Playback(replay, {
      play: $('#play'), slider: $('#time-slider'), readout: $('#time-readout'),
      speed: $('#speed'), loop: $('#loop'),
    }, (t) => this.showTime(t));

    this.buildCameraButtons($('#camera-presets'));
    this.buildToggles($('#toggles'));
    for (const name of replay.plots) {
      if (replay.hasColumn(name)) this.plots.add(name);
    }

    doc.addEventListener('keydown', (event) => {
      const tag = event.target?.tagName;
      if (tag === 'INPUT' || tag === 'SELECT' || tag === 'TEXTAREA' || tag === 'BUTTON') return;
      if (this.playback.handleKey(event)) event.preventDefault();
    });
    new ResizeObserver(() => {
      this.scene.resize(Math.max(1, viewport.clientWidth), Math.max(1, viewport.clientHeight));
      this.scene.render();
    }).observe(viewport);

    this.setCameraPreset(replay.camera ? 'file' : 'fit');
    this.playback.setTime(replay.startTime);
  }

  buildCameraButtons(container) {
    for (const name of this.scene.cameraPresets()) {
      const button = this.doc.createElement('button');
      button.type = 'button';
      button.textContent = PRESET_LABELS[name];
      button.dataset.preset = name;
      button.title = name === 'file' ? 'The camera of the simulation file' :
        name === 'fit' ? 'The whole motion in view' : `View from the ${name}`;
      button.addEventListener('click', () => this.setCameraPreset(name));
      container.append(button);
    }
  }

  buildToggles(container) {
    this.toggleBoxes = {};
    for (const name of TOGGLES) {
      const label = this.doc.createElement('label');
      const box = this.doc.createElement('input');
      box.type = 'checkbox';
      box.checked = this.scene.toggleState[name];
      box.dataset.toggle = name;
      box.addEventListener('change', () => this.setToggle(name, box.checked));
      label.append(box, ` ${TOGGLE_LABELS[name]}`);
      container.append(label);
      this.toggleBoxes[name] = box;
    }
  }

  setToggle(name, on) {
    this.scene.setToggle(name, on);
    this.toggleBoxes[name].checked = Boolean(on);
    // Springs and arrows also hide when degenerate: the update decides their visibility.
    this.scene.update(this.playback.time);
    this.scene.render();
  }

  setCameraPreset(name) {
    this.scene.setCameraPreset(name);
    for (const button of this.doc.querySelectorAll('#camera-presets button')) {
      button.classList.toggle('active', button.dataset.preset === name);
    }
  }

  seek(t) {
    this.playback.seek(t);
  }

  showTime(t) {
    this.scene.update(t);
    this.plots.setTime(t);
    this.picker.refresh();
    this.scene.render();
  }
}

function showError(doc, error) {
  const box = doc.querySelector('#error');
  if (box) {
    box.textContent = `This replay cannot be shown: ${error.message}`;
    box.hidden = false;
  }
}

function start(api) {
  try {
    const viewer = new ReplayViewer(readEmbeddedReplay(document), document);
    api.attach(viewer);
    api.resolve();
  } catch (error) {
    showError(document, error);
    console.error(error);
    api.reject(error);
  }
}

// The API exists before the page has finished parsing, so a test can always wait on `ready`.
const api = installTestApi(window);
if (document.readyState === 'loading') {
  document.addEventListener('DOMContentLoaded', () => start(api));
} else {
  start(api);
}
