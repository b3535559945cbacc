// Body picking: a click (not the end of an orbit drag) on a body selects it, highlights it and
// shows its name and pose at the current time; a click on empty space clears the selection.

// Farther than this many CSS pixels between press and release, the pointer was dragging the
// camera, not clicking.
const CLICK_TOLERANCE = 4;

function formatVector(values) {
  return values.map((v) => (v >= 0 ? ' ' : '') + v.toFixed(6)).join(' ');
}

export class Picker {
  constructor(scene, canvas, panel) {
    this.scene = scene;
    this.panel = panel;
    this.nameField = panel.querySelector('#pick-name');
    this.positionField = panel.querySelector('#pick-position');
    this.quaternionField = panel.querySelector('#pick-quaternion');
    panel.querySelector('#pick-close').addEventListener('click', () => this.select(null));

    let pressX = 0;
    let pressY = 0;
    canvas.addEventListener('pointerdown', (event) => {
      pressX = event.clientX;
      pressY = event.clientY;
    });
    canvas.addEventListener('pointerup', (event) => {
      if (event.button !== 0) return;
      if (Math.hypot(event.clientX - pressX, event.clientY - pressY) > CLICK_TOLERANCE) return;
      this.select(scene.pick(event.clientX, event.clientY));
    });
  }

  select(name) {
    this.scene.select(name);
    this.panel.hidden = this.scene.selected === null;
    this.refresh();
    this.scene.render();
  }

  // Called after every time change while a body is selected.
  refresh() {
    const name = this.scene.selected;
    if (name === null) return;
    const pose = this.scene.bodyPose(name);
    this.nameField.textContent = name;
    this.positionField.textContent = formatVector(pose.position);
    this.quaternionField.textContent = formatVector(pose.quaternion);
  }
}
