// three.js objects for what the replay data describes in a body's frame: visualization
// shapes, node frames and hinge axes; and the unit geometry of springs.
import * as THREE from 'three';

const Z_AXIS = new THREE.Vector3(0, 0, 1);

// Quaternions in the data are scalar first [w, x, y, z]; three.js takes (x, y, z, w).
export function quaternionFromData(q) {
  return new THREE.Quaternion(q[1], q[2], q[3], q[0]);
}

// Colours in the data are display (sRGB) values, as a modeller picks them; three.js works in
// linear sRGB, so they are converted on the way in.
export function colorFromData(rgb, fallback = [0.6, 0.6, 0.65]) {
  const c = rgb ?? fallback;
  return new THREE.Color().setRGB(c[0], c[1], c[2], THREE.SRGBColorSpace);
}

function placeInFrame(object, position, orientation) {
  if (position) object.position.set(position[0], position[1], position[2]);
  if (orientation) object.quaternion.copy(quaternionFromData(orientation));
  return object;
}

// three.js builds cylinders and capsules along Y; the data's axis is the shape frame's Z.
function alongZ(geometry) {
  return geometry.rotateX(Math.PI / 2);
}

function shapeGeometry(shape) {
  switch (shape.type) {
    case 'box':
      return new THREE.BoxGeometry(shape.size[0], shape.size[1], shape.size[2]);
    case 'sphere':
      return new THREE.SphereGeometry(shape.radius, 32, 16);
    case 'cylinder':
      return alongZ(new THREE.CylinderGeometry(shape.radius, shape.radius, shape.length, 32));
    case 'capsule':
      return alongZ(new THREE.CapsuleGeometry(shape.radius, shape.length, 8, 32));
    case 'mesh': {
      const scale = shape.scale ?? 1;
      const vertices = new Float32Array(shape.vertices.length);
      for (let i = 0; i < vertices.length; ++i) vertices[i] = shape.vertices[i] * scale;
      const geometry = new THREE.BufferGeometry();
      geometry.setAttribute('position', new THREE.BufferAttribute(vertices, 3));
      geometry.setIndex(shape.indices);
      geometry.computeVertexNormals();
      return geometry;
    }
    default:
      throw new Error(`unknown shape type "${shape.type}"`);
  }
}

// One visualization shape as a mesh placed in its body's frame. Each shape owns its material
// so that picking can highlight one body without touching the others.
export function createShape(shape) {
  const material = new THREE.MeshStandardMaterial({
    color: colorFromData(shape.color),
    roughness: 0.55,
    metalness: 0.05,
    // OBJ files do not agree on winding; a mesh seen from inside must not vanish.
    side: shape.type === 'mesh' ? THREE.DoubleSide : THREE.FrontSide,
  });
  const mesh = new THREE.Mesh(shapeGeometry(shape), material);
  mesh.name = `shape:${shape.type}`;
  return placeInFrame(mesh, shape.position, shape.orientation);
}

// Red/green/blue line triad for X/Y/Z. Drawn on top of the shapes (no depth test): a frame
// usually sits inside its body, where it would otherwise be hidden.
export function createTriad(size) {
  const positions = new Float32Array([0, 0, 0, size, 0, 0, 0, 0, 0, 0, size, 0, 0, 0, 0, 0, 0, size]);
  const colors = new Float32Array([1, 0, 0, 1, 0, 0, 0, 0.7, 0, 0, 0.7, 0, 0, 0.3, 1, 0, 0.3, 1]);
  const geometry = new THREE.BufferGeometry();
  geometry.setAttribute('position', new THREE.BufferAttribute(positions, 3));
  geometry.setAttribute('color', new THREE.BufferAttribute(colors, 3));
  const material = new THREE.LineBasicMaterial({ vertexColors: true, depthTest: false, transparent: true });
  const lines = new THREE.LineSegments(geometry, material);
  lines.renderOrder = 10;
  return lines;
}

export function createFrame(frame, size) {
  const triad = createTriad(size);
  triad.name = `frame:${frame.name}`;
  return placeInFrame(triad, frame.position, frame.orientation);
}

const ROTATION_COLOR = 0xff8c1a;
const TRANSLATION_COLOR = 0x1ab0c8;

// A joint's axes on a body: each rotation axis as a line through the joint with a ring around
// it, each translation axis as a line with an arrow head at both ends.
export function createHinge(hinge, size) {
  const group = new THREE.Group();
  group.name = `hinge:${hinge.name}`;
  placeInFrame(group, hinge.position, null);
  const kinds = hinge.kinds ?? [];
  (hinge.axes ?? []).forEach((axisData, k) => {
    const axis = new THREE.Vector3(axisData[0], axisData[1], axisData[2]);
    if (axis.lengthSq() === 0) return;
    axis.normalize();
    const translation = kinds[k] === 'translation';
    const color = translation ? TRANSLATION_COLOR : ROTATION_COLOR;
    const material = new THREE.LineBasicMaterial({ color, depthTest: false, transparent: true });
    const marker = new THREE.Group();
    marker.quaternion.setFromUnitVectors(Z_AXIS, axis);
    const half = 0.5 * size;
    const line = new THREE.BufferGeometry().setFromPoints([
      new THREE.Vector3(0, 0, -half), new THREE.Vector3(0, 0, half)]);
    marker.add(new THREE.Line(line, material));
    if (translation) {
      const head = new THREE.ConeGeometry(0.06 * size, 0.15 * size, 12);
      const headMaterial = new THREE.MeshBasicMaterial({ color, depthTest: false, transparent: true });
      for (const sign of [1, -1]) {
        const cone = new THREE.Mesh(head, headMaterial);
        cone.position.set(0, 0, sign * half);
        cone.rotation.x = sign * Math.PI / 2;
        marker.add(cone);
      }
    } else {
      const ring = new THREE.EllipseCurve(0, 0, 0.15 * size, 0.15 * size).getPoints(40);
      const ringGeometry = new THREE.BufferGeometry().setFromPoints(ring);
      marker.add(new THREE.LineLoop(ringGeometry, material));
    }
    marker.traverse((o) => { o.renderOrder = 11; });
    group.add(marker);
  });
  return group;
}

// A coil of the given radius and turns from (0, 0, 0) to (0, 0, 1): the spring object is
// stretched along Z to the current distance of its end points, so the frame loop only sets a
// transform and never rebuilds geometry.
export function createCoilGeometry(radius, turns) {
  const pointsPerTurn = 24;
  const count = Math.max(1, Math.round(turns)) * pointsPerTurn;
  // A short straight lead at each end so the coil visibly attaches to its points.
  const lead = 0.08;
  const positions = new Float32Array(3 * (count + 3));
  positions.set([0, 0, 0], 0);
  for (let i = 0; i <= count; ++i) {
    const s = i / count;
    const angle = 2 * Math.PI * turns * s;
    positions.set([radius * Math.cos(angle), radius * Math.sin(angle), lead + (1 - 2 * lead) * s], 3 * (i + 1));
  }
  positions.set([0, 0, 1], 3 * (count + 2));
  const geometry = new THREE.BufferGeometry();
  geometry.setAttribute('position', new THREE.BufferAttribute(positions, 3));
  return geometry;
}

export function createSegmentGeometry() {
  const geometry = new THREE.BufferGeometry();
  geometry.setAttribute('position', new THREE.BufferAttribute(new Float32Array([0, 0, 0, 0, 0, 1]), 3));
  return geometry;
}

// Bounding sphere radius of a shape about its own centre, without building it: used to size
// default views before anything is drawn.
export function shapeRadius(shape) {
  switch (shape.type) {
    case 'box':
      return 0.5 * Math.hypot(shape.size[0], shape.size[1], shape.size[2]);
    case 'sphere':
      return shape.radius;
    case 'cylinder':
      return Math.hypot(shape.radius, 0.5 * shape.length);
    case 'capsule':
      return shape.radius + 0.5 * shape.length;
    case 'mesh': {
      let max = 0;
      const v = shape.vertices;
      for (let i = 0; i < v.length; i += 3) max = Math.max(max, Math.hypot(v[i], v[i + 1], v[i + 2]));
      return max * (shape.scale ?? 1);
    }
    default:
      return 0;
  }
}
