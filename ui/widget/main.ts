import { ChatWidget } from './widget';

/**
 * Entry of widget.js. A site embeds it with one tag:
 *   <script src="https://<balcão>/widget.js" data-identifier="<widget identifier>" async></script>
 * The server is the script's own origin; `data-open="true"` opens the chat box on load.
 */
declare global {
  interface Window {
    BalcaoWidget?: Record<string, ChatWidget>;
  }
}

function boot(script: HTMLScriptElement): void {
  const identifier = script.dataset.identifier;
  if (!identifier) {
    console.warn('Balcão widget: falta o atributo data-identifier no <script>.');
    return;
  }
  const registry = (window.BalcaoWidget ??= {});
  // Loaded twice on one page (a tag plus a tag manager): one widget per identifier.
  if (registry[identifier]) return;
  const widget = new ChatWidget({ base: new URL(script.src, location.href).origin, identifier, open: script.dataset.open === 'true' });
  registry[identifier] = widget;
  const start = () => void widget.mount();
  if (document.body) start();
  else document.addEventListener('DOMContentLoaded', start, { once: true });
}

const current = document.currentScript;
if (current instanceof HTMLScriptElement) boot(current);
else document.querySelectorAll<HTMLScriptElement>('script[data-identifier][src*="widget"]').forEach(boot);
