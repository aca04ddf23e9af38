import { chromium } from 'playwright-core';
import { CHROMIUM_PATH } from '../helpers/browser';

/**
 * Records a real `audio/webm;codecs=opus` clip the way the inbox composer does (MediaRecorder in
 * Chromium), from a 440 Hz OscillatorNode into a MediaStreamAudioDestinationNode, for `ms` milliseconds.
 * Its own headless Chromium, so the autoplay policy lets the AudioContext run without a click.
 */
export async function recordWebmOpus(ms: number): Promise<{ bytes: Buffer; mime: string; elapsedMs: number }> {
  const browser = await chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--autoplay-policy=no-user-gesture-required'],
  });
  try {
    const page = await browser.newPage();
    await page.setContent('<html><body>gravando</body></html>');
    // Run as page script (the Node tsconfig has no DOM types).
    const result = (await page.evaluate(`(async (duration) => {
      const ctx = new AudioContext();
      await ctx.resume();
      const osc = ctx.createOscillator();
      osc.frequency.value = 440;
      const dest = ctx.createMediaStreamDestination();
      osc.connect(dest);
      osc.start();
      const recorder = new MediaRecorder(dest.stream, { mimeType: 'audio/webm;codecs=opus' });
      const chunks = [];
      recorder.ondataavailable = (e) => chunks.push(e.data);
      const stopped = new Promise((resolve) => (recorder.onstop = resolve));
      recorder.start();
      const started = performance.now();
      await new Promise((resolve) => setTimeout(resolve, duration));
      recorder.stop();
      await stopped;
      const elapsedMs = performance.now() - started;
      osc.stop();
      await ctx.close();
      const buf = new Uint8Array(await new Blob(chunks).arrayBuffer());
      let binary = '';
      for (const b of buf) binary += String.fromCharCode(b);
      return { base64: btoa(binary), mime: recorder.mimeType, elapsedMs };
    })(${Number(ms)})`)) as { base64: string; mime: string; elapsedMs: number };
    return { bytes: Buffer.from(result.base64, 'base64'), mime: result.mime, elapsedMs: result.elapsedMs };
  } finally {
    await browser.close();
  }
}
