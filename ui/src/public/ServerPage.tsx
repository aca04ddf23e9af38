import { useEffect } from 'react';
import { useLocation } from 'react-router';
import { shellTexts as texts } from '../i18n/shellTexts';

const t = texts.public.unavailable;

/** The path the browser loaded this document from (not where client-side routing has taken it since). */
function documentPath(): string {
  const nav = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming | undefined;
  try {
    return new URL(nav?.name ?? window.location.href).pathname;
  } catch {
    return window.location.pathname;
  }
}

/**
 * A public page met inside the SPA (a link to `/` from /user/*, the Ok of a confirmation): those pages are
 * prerendered HTML the api serves (docs/public-site.md), so the browser loads the address from the server.
 * When the server already answered this very address with the SPA (offline, through the service worker's
 * cached shell, or a build without the pages), loading it again would loop: a short notice instead.
 */
export function ServerPage() {
  const { pathname, search, hash } = useLocation();
  const servedHere = documentPath() === pathname;
  useEffect(() => {
    if (!servedHere) window.location.replace(`${pathname}${search}${hash}`);
  }, [servedHere, pathname, search, hash]);
  if (!servedHere) return null;
  return (
    <main style={{ maxWidth: 560, margin: '15vh auto', padding: '0 20px', fontFamily: 'system-ui, sans-serif', color: '#1e293b' }}>
      <h1 style={{ fontSize: '1.6rem' }}>{t.title}</h1>
      <p>{t.text}</p>
      <p>
        <a href={`${pathname}${search}`}>{t.retry}</a> · <a href="/user/login">{t.login}</a>
      </p>
    </main>
  );
}
