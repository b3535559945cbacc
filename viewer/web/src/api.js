// window.hopsimViewer: the page's test API (docs/viewer.md), used by tests/viewer/*.test.mjs
// and handy from the browser console. It exists from the first moment so that a test can wait
// on `ready`; the methods arrive when the viewer is built.

export function installTestApi(win) {
  let resolve;
  let reject;
  const api = {
    ready: new Promise((res, rej) => {
      resolve = res;
      reject = rej;
    }),
    readyTime: null,
  };
  win.hopsimViewer = api;
  return {
    attach(viewer) {
      const { replay, scene } = viewer;
      Object.assign(api, {
        startTime: replay.startTime,
        endTime: replay.endTime,
        backgroundColor: viewer.backgroundColor.slice(),
        setTime: (t) => viewer.seek(t),
        time: () => viewer.playback.time,
        bodyNames: () => [...scene.bodies.keys()],
        bodyPose: (name) => scene.bodyPose(name),
        screenPoint: (p) => scene.screenPoint(p),
        bodyScreenPoint: (name) => scene.bodyScreenPoint(name),
        pick: (x, y) => scene.pick(x, y),
        setToggle: (name, on) => viewer.setToggle(name, on),
        toggles: () => ({ ...scene.toggleState }),
        setCameraPreset: (name) => viewer.setCameraPreset(name),
        cameraPresets: () => scene.cameraPresets(),
        plottedColumns: () => viewer.plots.names(),
        addPlot: (name) => viewer.plots.add(name),
        selectedBody: () => scene.selected,
      });
    },
    // The first frame has been drawn: the time is part of the API (load-time test).
    resolve() {
      api.readyTime = win.performance.now();
      resolve(api.readyTime);
    },
    reject(error) {
      reject(error);
    },
  };
}
