import { useContext, useEffect, useRef, useState } from 'react';
import { UNSAFE_NavigationContext, type To } from 'react-router';

type Go = (to: To, state?: unknown, opts?: unknown) => void;
interface HistoryLike {
  push: Go;
  replace: Go;
}

/**
 * Asks before leaving the editor with unsaved changes (SPEC §2). The app runs under a BrowserRouter (no data
 * router, so no useBlocker): in-app navigations are held by wrapping the router's push/replace, and the
 * browser's own leave prompt covers reloads and closing the tab. Moving between the editor's sub-routes
 * (`isInside`) never asks. Returns the held navigation so the page can show its confirmation.
 */
export function useLeaveGuard(isDirty: () => boolean, isInside: (pathname: string) => boolean) {
  const { navigator } = useContext(UNSAFE_NavigationContext);
  const [pending, setPending] = useState<(() => void) | null>(null);
  const dirty = useRef(isDirty);
  const inside = useRef(isInside);
  dirty.current = isDirty;
  inside.current = isInside;

  useEffect(() => {
    const history = navigator as unknown as HistoryLike;
    const { push, replace } = history;
    const guard =
      (go: Go): Go =>
      (to, state, opts) => {
        const pathname = typeof to === 'string' ? new URL(to, window.location.href).pathname : (to.pathname ?? window.location.pathname);
        if (!dirty.current() || inside.current(pathname)) return go(to, state, opts);
        setPending(() => () => go(to, state, opts));
      };
    history.push = guard(push);
    history.replace = guard(replace);
    const beforeUnload = (e: BeforeUnloadEvent) => {
      if (dirty.current()) e.preventDefault();
    };
    window.addEventListener('beforeunload', beforeUnload);
    return () => {
      history.push = push;
      history.replace = replace;
      window.removeEventListener('beforeunload', beforeUnload);
    };
  }, [navigator]);

  return {
    pending: pending !== null,
    leave: () => {
      const go = pending;
      setPending(null);
      go?.();
    },
    stay: () => setPending(null),
  };
}
