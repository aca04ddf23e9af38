/**
 * Registers /sw.js (ui/pwa/sw.js, docs/pwa.md) in production builds: the app shell works offline and Web
 * Push notifications can be shown. The dev server (vite) has no service worker, so nothing is cached there.
 * A notification click on an open tab arrives here as a message and is routed without reloading.
 */
export function registerServiceWorker(): void {
  if (!import.meta.env.PROD || !('serviceWorker' in navigator)) return;
  navigator.serviceWorker.addEventListener('message', (event: MessageEvent<{ type?: string; url?: string }>) => {
    const url = event.data?.url;
    if (event.data?.type !== 'balcao:navigate' || typeof url !== 'string' || !url.startsWith('/')) return;
    if (window.location.pathname === url) return;
    // BrowserRouter follows history: a pushState plus popstate is a client-side navigation.
    window.history.pushState({}, '', url);
    window.dispatchEvent(new PopStateEvent('popstate', { state: {} }));
  });
  const register = () => void navigator.serviceWorker.register('/sw.js', { scope: '/' }).catch(() => undefined);
  if (document.readyState === 'complete') register();
  else window.addEventListener('load', register, { once: true });
}
