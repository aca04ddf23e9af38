import { STORAGE_PREFIX } from '../providers/session';

/**
 * SPEC §9: a short sound on a new conversation or a message from someone else. Synthesised with Web Audio
 * (no file to fetch, nothing the CSP has to allow). Browsers keep audio suspended until a user gesture, so
 * the first click, tap or key press on the page unlocks it; later chimes play at once. It can be turned off
 * (`balcao.inbox.sound`, the preference usePreference('sound', true) writes: per browser).
 */
let context: AudioContext | undefined;
let lastPlayed = 0;

export const SOUND_PREFERENCE = 'sound';

/** Whether a sound preference (usePreference's key; the inbox's, or the team chat's 'teamSound') is on: on unless turned off. */
export function soundEnabled(preference: string = SOUND_PREFERENCE): boolean {
  return localStorage.getItem(`${STORAGE_PREFIX}inbox.${preference}`) !== 'false';
}

const GESTURES = ['pointerdown', 'keydown', 'touchend'] as const;

function unlock(): void {
  try {
    context ??= new AudioContext();
    if (context.state === 'suspended') void context.resume().catch(() => undefined);
  } catch {
    // No audio device or API: nothing to unlock.
  }
  if (!context || context.state === 'running') for (const g of GESTURES) window.removeEventListener(g, unlock, true);
}

// Created (or resumed) inside the first gesture, where browsers allow it.
if (typeof window !== 'undefined') for (const g of GESTURES) window.addEventListener(g, unlock, { capture: true, passive: true });

/** The chime, unless `preference` is off (the team chat passes its own, docs/team-chat.md). */
export function playNotificationSound(preference: string = SOUND_PREFERENCE): void {
  if (!soundEnabled(preference)) return;
  const now = Date.now();
  // One inbound message can arrive as chat.newCall and chat.newMessage: one chime.
  if (now - lastPlayed < 1000) return;
  lastPlayed = now;
  window.dispatchEvent(new CustomEvent('balcao:notification-sound', { detail: { preference } }));
  try {
    context ??= new AudioContext();
    if (context.state === 'suspended') void context.resume().catch(() => undefined);
    const t = context.currentTime;
    const osc = context.createOscillator();
    const gain = context.createGain();
    osc.type = 'sine';
    osc.frequency.setValueAtTime(880, t);
    osc.frequency.setValueAtTime(1320, t + 0.09);
    gain.gain.setValueAtTime(0.0001, t);
    gain.gain.exponentialRampToValueAtTime(0.18, t + 0.015);
    gain.gain.exponentialRampToValueAtTime(0.0001, t + 0.28);
    osc.connect(gain).connect(context.destination);
    osc.start(t);
    osc.stop(t + 0.3);
  } catch {
    // No audio device or API: the list still updates.
  }
}
