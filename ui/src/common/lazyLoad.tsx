import { Component, lazy, Suspense, useState, type ComponentType, type ReactNode } from 'react';

/**
 * Helpers for the parts of a screen loaded after its first paint (docs/performance.md "UI weight"): menus,
 * drawers and dialogs whose code is fetched when the browser is idle or when they are first asked for.
 */

/** Runs `fn` once the browser is idle (within `timeout` ms at the latest); returns what cancels it. */
export function whenIdle(fn: () => void, timeout = 3000): () => void {
  if ('requestIdleCallback' in window) {
    const handle = window.requestIdleCallback(fn, { timeout });
    return () => window.cancelIdleCallback(handle);
  }
  const timer = setTimeout(fn, timeout / 2);
  return () => clearTimeout(timer);
}

/**
 * True from the first time `open` is true. A lazily loaded menu or drawer mounts then and stays mounted, so
 * it animates closed like one imported up front; until then its code is not needed.
 */
export function useOpenedOnce(open: boolean): boolean {
  const [opened, setOpened] = useState(open);
  if (open && !opened) setOpened(true);
  return opened || open;
}

/**
 * React.lazy for a part that must show at once when asked for (a menu): `preload()` fetches its code (call it
 * when idle), and an instance mounted after that renders without suspending, as with a static import. One
 * mounted before suspends like React.lazy, so render it inside <Suspense>.
 */
export function preloadableLazy<P extends object>(load: () => Promise<ComponentType<P>>) {
  let loaded: ComponentType<P> | undefined;
  let pending: Promise<ComponentType<P>> | undefined;
  const preload = () =>
    (pending ??= load().then(
      (component) => (loaded = component),
      (err: unknown) => {
        pending = undefined;
        throw err;
      },
    ));
  const Lazy = lazy(() => preload().then((component) => ({ default: component })));
  function Preloadable(props: P) {
    // Chosen once per instance: switching from the lazy wrapper to the loaded component would remount it.
    const [Component] = useState<ComponentType<P>>(() => loaded ?? (Lazy as unknown as ComponentType<P>));
    return <Component {...props} />;
  }
  return Object.assign(Preloadable, { preload });
}

/**
 * <Suspense fallback={null}> for a lazily loaded part of the app shell (a menu, the toast), which shows
 * `fallback` (nothing unless given) if its code cannot be fetched, offline or after a deploy replaced it,
 * instead of taking the whole screen down: the shell's header is outside the page's error boundary.
 */
export class LazyPart extends Component<{ children: ReactNode; fallback?: ReactNode }, { failed: boolean }> {
  override state = { failed: false };

  static getDerivedStateFromError(): { failed: boolean } {
    return { failed: true };
  }

  override componentDidCatch(error: unknown): void {
    console.error(error);
  }

  override render(): ReactNode {
    if (this.state.failed) return this.props.fallback ?? null;
    return <Suspense fallback={null}>{this.props.children}</Suspense>;
  }
}
