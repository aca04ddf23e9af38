/**
 * SPEC §9: a short sound on a new conversation or a message from someone else. Synthesised with Web Audio
 * (no file to fetch, nothing the CSP has to allow); browsers keep it silent until the first user gesture.
 */
let context: AudioContext | undefined;
let lastPlayed = 0;

export function playNotificationSound(): void {
  const now = Date.now();
  // One inbound message can arrive as chat.newCall and chat.newMessage: one chime.
  if (now - lastPlayed < 1000) return;
  lastPlayed = now;
  window.dispatchEvent(new CustomEvent('balcao:notification-sound'));
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
