// @ts-check
// Sound effects synthesised with WebAudio (no sound files). Switchable, remembered.
const KEY = "bistrot.sound";
let ctx = null;
let enabled = true;
try { enabled = localStorage.getItem(KEY) !== "off"; } catch { /* ignore */ }

export const soundOn = () => enabled;
export function setSound(on) {
  enabled = on;
  try { localStorage.setItem(KEY, on ? "on" : "off"); } catch { /* ignore */ }
}

function audio() {
  if (!enabled) return null;
  if (!ctx) {
    const Ctx = window.AudioContext || /** @type {{ webkitAudioContext?: typeof AudioContext }} */ (/** @type {unknown} */ (window)).webkitAudioContext;
    if (!Ctx) return null;
    try { ctx = new Ctx(); } catch { return null; }
  }
  if (ctx.state === "suspended") ctx.resume().catch(() => {});
  return ctx;
}

function tone(freq, start, length, { type = "sine", gain = 0.15, slide = null } = {}) {
  const a = audio();
  if (!a) return;
  const t0 = a.currentTime + start;
  const osc = a.createOscillator();
  const amp = a.createGain();
  osc.type = type;
  osc.frequency.setValueAtTime(freq, t0);
  if (slide) osc.frequency.exponentialRampToValueAtTime(slide, t0 + length);
  amp.gain.setValueAtTime(0.0001, t0);
  amp.gain.exponentialRampToValueAtTime(gain, t0 + 0.01);
  amp.gain.exponentialRampToValueAtTime(0.0001, t0 + length);
  osc.connect(amp).connect(a.destination);
  osc.start(t0);
  osc.stop(t0 + length + 0.02);
}

function snap() {
  // A card landing on felt: a short burst of filtered noise.
  const a = audio();
  if (!a) return;
  const length = 0.08;
  const buffer = a.createBuffer(1, Math.floor(a.sampleRate * length), a.sampleRate);
  const data = buffer.getChannelData(0);
  for (let i = 0; i < data.length; i++) data[i] = (Math.random() * 2 - 1) * (1 - i / data.length) ** 3;
  const src = a.createBufferSource();
  src.buffer = buffer;
  const filter = a.createBiquadFilter();
  filter.type = "bandpass";
  filter.frequency.value = 1800;
  const amp = a.createGain();
  amp.gain.value = 0.5;
  src.connect(filter).connect(amp).connect(a.destination);
  src.start();
}

export const sounds = {
  card: snap,
  turn: () => tone(880, 0, 0.18, { gain: 0.08 }),
  trick: () => { tone(660, 0, 0.12); tone(990, 0.09, 0.18); },
  hand: () => { tone(523, 0, 0.15); tone(659, 0.12, 0.15); tone(784, 0.24, 0.3); },
  win: () => { [523, 659, 784, 1047].forEach((f, i) => tone(f, i * 0.13, 0.35, { type: "triangle" })); },
  lose: () => { tone(392, 0, 0.3, { type: "triangle" }); tone(330, 0.25, 0.45, { type: "triangle" }); },
  error: () => tone(180, 0, 0.22, { type: "square", gain: 0.05, slide: 120 }),
  pickup: () => { snap(); setTimeout(snap, 70); setTimeout(snap, 140); },
};

export function play(name) {
  if (!enabled) return;
  try { sounds[name]?.(); } catch { /* sound is never worth an error */ }
}
