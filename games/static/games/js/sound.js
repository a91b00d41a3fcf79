// Place and flip sounds made with WebAudio (no audio files); silent unless switched on.
import { getPref, setPref } from "./prefs.js";

let context = null;

export const sound = {
  enabled: getPref("sound", false),

  toggle() {
    this.enabled = !this.enabled;
    setPref("sound", this.enabled);
    return this.enabled;
  },

  place() {
    this.beep(220, 0.09, "triangle");
  },

  flip() {
    this.beep(660, 0.05, "sine");
  },

  beep(frequency, seconds, type) {
    if (!this.enabled) return;
    const AudioContextClass = window.AudioContext || window.webkitAudioContext;
    if (!AudioContextClass) return;
    context ??= new AudioContextClass();
    const oscillator = context.createOscillator();
    const gain = context.createGain();
    oscillator.type = type;
    oscillator.frequency.value = frequency;
    gain.gain.setValueAtTime(0.2, context.currentTime);
    gain.gain.exponentialRampToValueAtTime(0.001, context.currentTime + seconds);
    oscillator.connect(gain).connect(context.destination);
    oscillator.start();
    oscillator.stop(context.currentTime + seconds);
  },
};
