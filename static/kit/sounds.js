// Parlor sounds made on the spot with WebAudio: no files to download.
// clink: a ceramic tile set on the table; click: a tile on the rack; pick: a tile lifted;
// shuffle: tiles stirred in the pouch; chime: a rack emptied; warning: the clock running out.

let ctx = null;
let muted = false;

export function setMuted(value) {
  muted = value;
}

function audio() {
  if (muted) return null;
  if (!ctx) {
    const Ctx = globalThis.AudioContext || globalThis.webkitAudioContext;
    if (!Ctx) return null;
    ctx = new Ctx();
  }
  if (ctx.state === "suspended") ctx.resume();
  return ctx;
}

function tone(a, { freq, type = "sine", start = 0, attack = 0.002, decay = 0.2, gain = 0.2, bend = 1 }) {
  const t = a.currentTime + start;
  const osc = a.createOscillator();
  const g = a.createGain();
  osc.type = type;
  osc.frequency.setValueAtTime(freq, t);
  if (bend !== 1) osc.frequency.exponentialRampToValueAtTime(freq * bend, t + decay);
  g.gain.setValueAtTime(0, t);
  g.gain.linearRampToValueAtTime(gain, t + attack);
  g.gain.exponentialRampToValueAtTime(0.0001, t + attack + decay);
  osc.connect(g).connect(a.destination);
  osc.start(t);
  osc.stop(t + attack + decay + 0.05);
}

function noise(a, { start = 0, length = 0.05, gain = 0.2, freq = 3000, q = 1 }) {
  const t = a.currentTime + start;
  const frames = Math.max(1, Math.floor(a.sampleRate * length));
  const buffer = a.createBuffer(1, frames, a.sampleRate);
  const data = buffer.getChannelData(0);
  for (let i = 0; i < frames; i++) data[i] = (Math.random() * 2 - 1) * (1 - i / frames) ** 2;
  const src = a.createBufferSource();
  src.buffer = buffer;
  const filter = a.createBiquadFilter();
  filter.type = "bandpass";
  filter.frequency.value = freq;
  filter.Q.value = q;
  const g = a.createGain();
  g.gain.value = gain;
  src.connect(filter).connect(g).connect(a.destination);
  src.start(t);
}

const SOUNDS = {
  clink(a) {
    // Inharmonic partials decaying fast read as a hard, heavy tile.
    noise(a, { length: 0.02, gain: 0.35, freq: 2400, q: 0.8 });
    tone(a, { freq: 1870, decay: 0.09, gain: 0.09 });
    tone(a, { freq: 3260, decay: 0.05, gain: 0.05 });
    tone(a, { freq: 190, type: "triangle", decay: 0.06, gain: 0.16, bend: 0.7 });
  },
  click(a) {
    noise(a, { length: 0.012, gain: 0.25, freq: 4200, q: 2 });
    tone(a, { freq: 900, decay: 0.03, gain: 0.05 });
  },
  pick(a) {
    noise(a, { length: 0.015, gain: 0.12, freq: 5200, q: 1.5 });
  },
  tick(a) {
    tone(a, { freq: 1400, decay: 0.04, gain: 0.05 });
  },
  shuffle(a) {
    for (let i = 0; i < 14; i++) {
      noise(a, { start: i * 0.035 + Math.random() * 0.02, length: 0.03, gain: 0.12 + Math.random() * 0.1, freq: 1800 + Math.random() * 2200, q: 0.9 });
    }
  },
  chime(a) {
    [523.25, 659.25, 783.99, 1046.5].forEach((freq, i) => {
      tone(a, { freq, start: i * 0.11, decay: 1.2, gain: 0.12 });
      tone(a, { freq: freq * 2, start: i * 0.11, decay: 0.5, gain: 0.03 });
    });
  },
  warning(a) {
    tone(a, { freq: 880, type: "square", decay: 0.08, gain: 0.04 });
    tone(a, { freq: 660, type: "square", start: 0.14, decay: 0.08, gain: 0.04 });
  },
  deny(a) {
    tone(a, { freq: 180, type: "triangle", decay: 0.12, gain: 0.12, bend: 0.8 });
  },
};

export function play(name) {
  try {
    const a = audio();
    if (a && SOUNDS[name]) SOUNDS[name](a);
  } catch {
    // A browser without audio just stays quiet.
  }
}
