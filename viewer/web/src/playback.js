// The replay clock and its controls: play/pause, time slider, speed, loop and keyboard
// stepping. Simulation time advances with wall-clock time times the speed; everything that
// depends on time is notified through onTime(t).

export const SPEEDS = [0.1, 0.25, 0.5, 1, 2, 5, 10];

export class Playback {
  constructor(replay, elements, onTime) {
    this.replay = replay;
    this.onTime = onTime;
    this.time = replay.startTime;
    this.playing = false;
    this.speed = 1;
    this.loop = true;
    this.lastFrame = 0;
    this.frame = this.frame.bind(this);

    const { play, slider, readout, speed, loop } = elements;
    this.playButton = play;
    this.slider = slider;
    this.readout = readout;
    this.speedSelect = speed;
    this.loopBox = loop;

    slider.min = String(replay.startTime);
    slider.max = String(replay.endTime);
    // "any" lets the slider land between samples; the scene interpolates there.
    slider.step = 'any';
    slider.addEventListener('input', () => this.seek(Number(slider.value)));
    play.addEventListener('click', () => this.toggle());
    for (const s of SPEEDS) {
      const option = speed.ownerDocument.createElement('option');
      option.value = String(s);
      option.textContent = `${s}\u00d7`;
      speed.append(option);
    }
    speed.value = String(this.speed);
    speed.addEventListener('change', () => { this.speed = Number(speed.value); });
    loop.checked = this.loop;
    loop.addEventListener('change', () => { this.loop = loop.checked; });
    this.showState();
  }

  // Keys while the page (not a text field) has focus: space plays/pauses, arrows step one
  // recorded sample, Home/End jump to the ends.
  handleKey(event) {
    const cursor = this.replay.cursor;
    const time = this.replay.time;
    switch (event.key) {
      case ' ':
        this.toggle();
        break;
      case 'ArrowRight':
        this.seek(time[Math.min(time.length - 1, cursor.index + 1)]);
        break;
      case 'ArrowLeft':
        this.seek(time[Math.max(0, cursor.fraction > 0 ? cursor.index : cursor.index - 1)]);
        break;
      case 'Home':
        this.seek(this.replay.startTime);
        break;
      case 'End':
        this.seek(this.replay.endTime);
        break;
      default:
        return false;
    }
    return true;
  }

  toggle() {
    if (this.playing) this.pause(); else this.play();
  }

  play() {
    if (this.playing) return;
    // Play at the end starts over, whether or not looping is on.
    if (this.time >= this.replay.endTime) this.setTime(this.replay.startTime);
    this.playing = true;
    this.lastFrame = performance.now();
    this.showState();
    requestAnimationFrame(this.frame);
  }

  pause() {
    this.playing = false;
    this.showState();
  }

  // Seeking pauses: a user who drags to a time wants to look at it.
  seek(t) {
    this.pause();
    this.setTime(t);
  }

  setTime(t) {
    const { startTime, endTime } = this.replay;
    this.time = Math.min(endTime, Math.max(startTime, t));
    this.slider.value = String(this.time);
    this.readout.textContent = `${this.time.toFixed(3)} s`;
    this.onTime(this.time);
  }

  frame(now) {
    if (!this.playing) return;
    // A hidden tab gets no frames; cap the step so that coming back does not jump far ahead.
    const elapsed = Math.min(0.1, (now - this.lastFrame) / 1000);
    this.lastFrame = now;
    const { startTime, endTime } = this.replay;
    let t = this.time + elapsed * this.speed;
    if (t >= endTime) {
      if (this.loop) {
        t = startTime + (t - endTime) % (endTime - startTime || 1);
      } else {
        this.setTime(endTime);
        this.pause();
        return;
      }
    }
    this.setTime(t);
    requestAnimationFrame(this.frame);
  }

  showState() {
    this.playButton.textContent = this.playing ? 'Pause' : 'Play';
    this.playButton.setAttribute('aria-pressed', String(this.playing));
  }
}
