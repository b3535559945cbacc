// The 3D scene of a replay: bodies, springs, arrows, grid and axes, the camera with its
// presets, and the per-time update. The scene root has the identity transform and every body
// is a direct child named after it, whose .position/.quaternion are the body frame's world pose
// (the e2e tests read them back through the test API).
import * as THREE from 'three';
import { OrbitControls } from 'three/examples/jsm/controls/OrbitControls.js';
import { PoseTrack, sampleColumn } from './data.js';
import {
  colorFromData, createCoilGeometry, createFrame, createHinge, createSegmentGeometry, createShape,
  createTriad, quaternionFromData, shapeRadius,
} from './shapes.js';

export const BACKGROUND = [238, 241, 245];
export const TOGGLES = ['shapes', 'frames', 'hinges', 'springs', 'arrows', 'grid', 'axes'];
export const CAMERA_PRESETS = ['file', 'fit', 'front', 'side', 'top'];

const Z_AXIS = new THREE.Vector3(0, 0, 1);
const SELECTED_EMISSIVE = new THREE.Color(0x604c00);
const NO_EMISSIVE = new THREE.Color(0x000000);

// 1, 2 or 5 times a power of ten, the first at least x: grid cells people can read.
function niceStep(x) {
  const power = 10 ** Math.floor(Math.log10(x));
  for (const m of [1, 2, 5, 10]) {
    if (m * power >= x) return m * power;
  }
  return 10 * power;
}

// How far a body's shapes reach from its frame origin (0 without shapes).
function bodyReach(body) {
  let reach = 0;
  for (const shape of body.shapes ?? []) {
    const p = shape.position ?? [0, 0, 0];
    reach = Math.max(reach, Math.hypot(p[0], p[1], p[2]) + shapeRadius(shape));
  }
  return reach;
}

export class ReplayScene {
  constructor(replay, canvas) {
    this.replay = replay;
    this.canvas = canvas;
    this.up = new THREE.Vector3(...replay.up);
    this.lengthScale = replay.lengthScale;

    this.renderer = new THREE.WebGLRenderer({ canvas, antialias: true });
    this.renderer.setPixelRatio(window.devicePixelRatio);
    this.renderer.setClearColor(new THREE.Color().setRGB(
      BACKGROUND[0] / 255, BACKGROUND[1] / 255, BACKGROUND[2] / 255, THREE.SRGBColorSpace), 1);

    this.scene = new THREE.Scene();
    this.categories = Object.fromEntries(TOGGLES.map((name) => [name, []]));
    // Frames and hinge axes are detail on demand: off until asked for.
    this.toggleState = Object.fromEntries(TOGGLES.map((name) => [name, name !== 'frames' && name !== 'hinges']));
    this.bodies = new Map();
    this.moving = [];
    this.springs = [];
    this.arrows = [];
    this.selected = null;

    this.buildBodies();
    this.bounds = this.modelBounds();
    this.buildSprings();
    this.buildArrows();
    this.buildGround();
    this.buildCamera();
    this.buildLights();
    for (const name of TOGGLES) this.setToggle(name, this.toggleState[name]);

    this.raycaster = new THREE.Raycaster();
    this.pointer = new THREE.Vector2();
    this.projected = new THREE.Vector3();
    this.worldA = new THREE.Vector3();
    this.worldB = new THREE.Vector3();
    this.direction = new THREE.Vector3();
  }

  buildBodies() {
    const replay = this.replay;
    const L = this.lengthScale;
    const clamp = (x, low, high) => Math.min(high, Math.max(low, x));
    for (const body of replay.bodies) {
      if (this.bodies.has(body.name)) {
        throw new Error(`two bodies are named "${body.name}"`);
      }
      const object = new THREE.Group();
      object.name = body.name;
      const reach = bodyReach(body);
      const entry = { name: body.name, object, track: null, shapes: [], data: body, reach };
      // Markers scale with their body, so that small parts of a large model keep readable
      // frames, within limits set by the model's size.
      const frameSize = clamp(0.6 * reach, 0.02 * L, 0.1 * L);
      const hingeSize = clamp(1.5 * reach, 0.05 * L, 0.25 * L);
      if (body.fixedPose) {
        object.position.set(...body.fixedPose.position);
        object.quaternion.copy(quaternionFromData(body.fixedPose.orientation));
      } else {
        entry.track = new PoseTrack(replay, body);
        this.moving.push(entry);
      }
      for (const shape of body.shapes ?? []) {
        const mesh = createShape(shape);
        mesh.userData.body = body.name;
        entry.shapes.push(mesh);
        this.categories.shapes.push(mesh);
        object.add(mesh);
      }
      const bodyFrame = createTriad(frameSize);
      bodyFrame.name = 'frame:body';
      this.categories.frames.push(bodyFrame);
      object.add(bodyFrame);
      for (const frame of body.frames ?? []) {
        const triad = createFrame(frame, 0.6 * frameSize);
        this.categories.frames.push(triad);
        object.add(triad);
      }
      for (const hinge of body.hinges ?? []) {
        const marker = createHinge(hinge, hingeSize);
        this.categories.hinges.push(marker);
        object.add(marker);
      }
      this.bodies.set(body.name, entry);
      this.scene.add(object);
    }
  }

  // Box around everything the bodies sweep over the whole run, from the recorded origins and
  // each body's shape extent: views and the grid then fit the motion, not only the first frame.
  modelBounds() {
    const box = new THREE.Box3();
    const swept = new THREE.Box3();
    const point = new THREE.Vector3();
    for (const entry of this.bodies.values()) {
      swept.makeEmpty();
      const p = entry.track ? entry.track.position : entry.data.fixedPose.position;
      for (let i = 0; i < p.length; i += 3) {
        if (Number.isFinite(p[i] + p[i + 1] + p[i + 2])) swept.expandByPoint(point.set(p[i], p[i + 1], p[i + 2]));
      }
      if (!swept.isEmpty()) box.union(swept.expandByScalar(entry.reach));
    }
    if (box.isEmpty()) {
      box.setFromCenterAndSize(new THREE.Vector3(), new THREE.Vector3().setScalar(this.lengthScale));
    }
    return box;
  }

  bodyObject(name) {
    return name === null ? null : this.bodies.get(name)?.object ?? null;
  }

  buildSprings() {
    for (const spring of this.replay.springs) {
      const geometry = spring.style === 'segment'
        ? createSegmentGeometry()
        : createCoilGeometry(spring.radius ?? 0.05 * this.lengthScale, spring.turns ?? 10);
      const line = new THREE.Line(geometry, new THREE.LineBasicMaterial({ color: colorFromData(spring.color, [0.2, 0.2, 0.2]) }));
      line.name = `spring:${spring.name}`;
      line.matrixAutoUpdate = true;
      this.categories.springs.push(line);
      this.scene.add(line);
      this.springs.push({
        line,
        body1: this.bodyObject(spring.body1 ?? null),
        point1: new THREE.Vector3(...spring.point1),
        body2: this.bodyObject(spring.body2 ?? null),
        point2: new THREE.Vector3(...spring.point2),
      });
    }
  }

  // Arrows of one kind (force, torque, ...) share a scale so that they compare: the largest
  // recorded magnitude of the kind is drawn 0.3 model sizes long.
  buildArrows() {
    const replay = this.replay;
    const largest = new Map();
    const specs = replay.arrows.map((arrow) => {
      const point = arrow.point.map((name) => replay.column(name));
      const vector = arrow.vector.map((name) => replay.column(name));
      let max = largest.get(arrow.kind) ?? 0;
      for (let i = 0; i < replay.time.length; ++i) {
        const m = Math.hypot(vector[0][i], vector[1][i], vector[2][i]);
        if (m > max) max = m;
      }
      largest.set(arrow.kind, max);
      return { arrow, point, vector };
    });
    for (const { arrow, point, vector } of specs) {
      const max = largest.get(arrow.kind);
      const helper = new THREE.ArrowHelper(Z_AXIS, new THREE.Vector3(), 1, colorFromData(arrow.color, [0.85, 0.1, 0.1]));
      helper.name = `arrow:${arrow.name}`;
      this.categories.arrows.push(helper);
      this.scene.add(helper);
      this.arrows.push({ helper, point, vector, scale: max > 0 ? 0.3 * this.lengthScale / max : 0 });
    }
  }

  // The grid lies under the whole motion, perpendicular to up; world axes at the origin.
  buildGround() {
    const up = this.up;
    const box = this.bounds;
    const centre = box.getCenter(new THREE.Vector3());
    let lowest = Infinity;
    for (let k = 0; k < 8; ++k) {
      const corner = new THREE.Vector3(
        k & 1 ? box.max.x : box.min.x, k & 2 ? box.max.y : box.min.y, k & 4 ? box.max.z : box.min.z);
      lowest = Math.min(lowest, corner.dot(up));
    }
    const extent = box.getSize(new THREE.Vector3()).length();
    const cell = niceStep(Math.max(extent, this.lengthScale) / 10);
    const divisions = 2 * Math.ceil(0.75 * Math.max(extent, this.lengthScale) / cell);
    const grid = new THREE.GridHelper(cell * divisions, divisions, 0xa8b0bc, 0xd0d5dd);
    grid.name = 'grid';
    grid.quaternion.setFromUnitVectors(new THREE.Vector3(0, 1, 0), up);
    grid.position.copy(centre).addScaledVector(up, lowest - centre.dot(up));
    this.categories.grid.push(grid);
    this.scene.add(grid);

    const axes = new THREE.AxesHelper(0.3 * this.lengthScale);
    axes.name = 'axes';
    this.categories.axes.push(axes);
    this.scene.add(axes);
  }

  buildCamera() {
    const L = this.lengthScale;
    const size = this.bounds.getSize(new THREE.Vector3()).length();
    this.camera = new THREE.PerspectiveCamera(35, 1, 1e-3 * Math.min(L, size), 100 * Math.max(L, size));
    // OrbitControls reads camera.up once, when it is made: up has to be set before.
    this.camera.up.copy(this.up);
    this.scene.add(this.camera);
    this.controls = new OrbitControls(this.camera, this.canvas);
    this.controls.screenSpacePanning = true;
    this.controls.addEventListener('change', () => this.render());

    // View directions relative to up. "right" is world X made perpendicular to up (world Y if
    // up is X); front looks along up x right, so up = Z gives the usual view from -Y and up = Y
    // (Chrono's default gravity) the usual view from +Z.
    const right = new THREE.Vector3(1, 0, 0);
    if (Math.abs(right.dot(this.up)) > 0.9) right.set(0, 1, 0);
    right.addScaledVector(this.up, -right.dot(this.up)).normalize();
    const front = new THREE.Vector3().crossVectors(right, this.up);  // from the target to the camera
    this.viewDirections = {
      fit: front.clone().addScaledVector(right, 0.55).addScaledVector(this.up, 0.45).normalize(),
      front,
      side: right.clone(),
      // Straight down would leave the orbit without a defined azimuth: tilt by a hair, so
      // that the front direction is at the bottom of the screen.
      top: this.up.clone().addScaledVector(front, 1e-3).normalize(),
    };
  }

  buildLights() {
    const hemisphere = new THREE.HemisphereLight(0xffffff, 0x8d8a84, 1.6);
    hemisphere.position.copy(this.up);
    this.scene.add(hemisphere);
    // A head light moves with the camera so that every view of the model is lit.
    const head = new THREE.DirectionalLight(0xffffff, 1.4);
    head.position.set(0.3, 0.5, 0);
    head.target.position.set(0, 0, -1);
    this.camera.add(head);
    this.camera.add(head.target);
  }

  cameraPresets() {
    return CAMERA_PRESETS.filter((name) => name !== 'file' || this.replay.camera);
  }

  setCameraPreset(name) {
    const target = this.controls.target;
    if (name === 'file') {
      const camera = this.replay.camera;
      if (!camera) throw new Error('the simulation file sets no camera');
      this.camera.position.set(...camera.location);
      target.set(...camera.target);
    } else {
      const direction = this.viewDirections[name];
      if (!direction) throw new Error(`unknown camera preset "${name}"`);
      const centre = this.bounds.getCenter(new THREE.Vector3());
      target.copy(centre);
      this.camera.position.copy(centre).addScaledVector(direction, this.fitDistance(direction));
    }
    this.controls.update();
    this.render();
  }

  // Distance from the centre of the model bounds, along direction, at which all eight corners
  // of the bounds are inside the view: tighter than a bounding sphere for long, flat
  // mechanisms. A corner at depth z towards the camera and offsets x, y across the view needs
  // distance - z >= |x| / tan(half horizontal fov) and >= |y| / tan(half vertical fov).
  fitDistance(direction) {
    const box = this.bounds;
    const centre = box.getCenter(new THREE.Vector3());
    const right = new THREE.Vector3().crossVectors(this.up, direction).normalize();
    const upOnScreen = new THREE.Vector3().crossVectors(direction, right);
    const tanVertical = Math.tan(THREE.MathUtils.degToRad(this.camera.fov) / 2);
    const tanHorizontal = tanVertical * this.camera.aspect;
    const corner = new THREE.Vector3();
    let distance = 0;
    for (let k = 0; k < 8; ++k) {
      corner.set(k & 1 ? box.max.x : box.min.x, k & 2 ? box.max.y : box.min.y, k & 4 ? box.max.z : box.min.z)
        .sub(centre);
      const z = corner.dot(direction);
      distance = Math.max(distance,
        z + Math.abs(corner.dot(right)) / tanHorizontal,
        z + Math.abs(corner.dot(upOnScreen)) / tanVertical);
    }
    return 1.1 * distance;
  }

  resize(width, height) {
    this.renderer.setSize(width, height, false);
    this.camera.aspect = width / height;
    this.camera.updateProjectionMatrix();
  }

  // Poses, springs and arrows at time t. Allocates nothing: it runs every animation frame.
  update(t) {
    const cursor = this.replay.cursor;
    cursor.seek(t);
    for (const entry of this.moving) {
      entry.track.write(cursor, entry.object.position, entry.object.quaternion);
    }
    const a = this.worldA;
    const b = this.worldB;
    const d = this.direction;
    for (const spring of this.springs) {
      this.toWorld(spring.body1, spring.point1, a);
      this.toWorld(spring.body2, spring.point2, b);
      d.subVectors(b, a);
      const length = d.length();
      spring.line.visible = this.toggleState.springs && length > 0;
      if (length > 0) {
        spring.line.position.copy(a);
        spring.line.quaternion.setFromUnitVectors(Z_AXIS, d.multiplyScalar(1 / length));
        spring.line.scale.set(1, 1, length);
      }
    }
    const head = 0.04 * this.lengthScale;
    for (const arrow of this.arrows) {
      const point = arrow.point;
      const vector = arrow.vector;
      d.set(sampleColumn(vector[0], cursor), sampleColumn(vector[1], cursor), sampleColumn(vector[2], cursor));
      const length = d.length() * arrow.scale;
      arrow.helper.visible = this.toggleState.arrows && length > 1e-6 * this.lengthScale;
      if (arrow.helper.visible) {
        arrow.helper.position.set(sampleColumn(point[0], cursor), sampleColumn(point[1], cursor), sampleColumn(point[2], cursor));
        arrow.helper.setDirection(d.normalize());
        arrow.helper.setLength(length, Math.min(head, 0.5 * length), Math.min(0.5 * head, 0.25 * length));
      }
    }
  }

  toWorld(body, point, out) {
    out.copy(point);
    if (body) out.applyQuaternion(body.quaternion).add(body.position);
    return out;
  }

  render() {
    this.renderer.render(this.scene, this.camera);
  }

  setToggle(name, on) {
    if (!(name in this.toggleState)) throw new Error(`unknown toggle "${name}"`);
    this.toggleState[name] = Boolean(on);
    for (const object of this.categories[name]) object.visible = Boolean(on);
  }

  bodyPose(name) {
    const object = this.bodies.get(name)?.object;
    if (!object) throw new Error(`no body named "${name}"`);
    const p = object.position;
    const q = object.quaternion;
    return { position: [p.x, p.y, p.z], quaternion: [q.w, q.x, q.y, q.z] };
  }

  // CSS pixel (x, y) of the page's viewport where world point p appears.
  screenPoint(p) {
    const v = this.projected.set(p[0], p[1], p[2]).project(this.camera);
    const rect = this.canvas.getBoundingClientRect();
    return [rect.left + (v.x + 1) / 2 * rect.width, rect.top + (1 - v.y) / 2 * rect.height];
  }

  bodyScreenPoint(name) {
    const entry = this.bodies.get(name);
    if (!entry) throw new Error(`no body named "${name}"`);
    const centre = this.worldA.set(0, 0, 0);
    if (entry.shapes.length > 0) {
      entry.object.updateMatrixWorld(true);
      entry.shapes[0].getWorldPosition(centre);
    } else {
      centre.copy(entry.object.position);
    }
    return this.screenPoint([centre.x, centre.y, centre.z]);
  }

  // The body whose visible shape is under CSS pixel (x, y) of the viewport, or null.
  pick(x, y) {
    const rect = this.canvas.getBoundingClientRect();
    if (x < rect.left || x > rect.right || y < rect.top || y > rect.bottom || !this.toggleState.shapes) {
      return null;
    }
    this.pointer.set((x - rect.left) / rect.width * 2 - 1, 1 - (y - rect.top) / rect.height * 2);
    this.raycaster.setFromCamera(this.pointer, this.camera);
    const hits = this.raycaster.intersectObjects(this.categories.shapes, false);
    return hits.length > 0 ? hits[0].object.userData.body : null;
  }

  select(name) {
    if (this.selected) {
      for (const mesh of this.bodies.get(this.selected).shapes) mesh.material.emissive.copy(NO_EMISSIVE);
    }
    this.selected = name && this.bodies.has(name) ? name : null;
    if (this.selected) {
      for (const mesh of this.bodies.get(this.selected).shapes) mesh.material.emissive.copy(SELECTED_EMISSIVE);
    }
  }
}
