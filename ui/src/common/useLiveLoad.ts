import { useEffect, type DependencyList } from 'react';

/**
 * Loads what a page shows when it mounts (and again when `deps` change): `onLoaded` gets the answer and
 * `onFailed` what went wrong, neither once the page has gone (a late answer must not reset a form that was left).
 */
export function useLiveLoad<T>(load: () => Promise<T>, onLoaded: (value: T) => void, onFailed: (err: unknown) => void, deps: DependencyList) {
  useEffect(() => {
    let live = true;
    load()
      .then((value) => {
        if (live) onLoaded(value);
      })
      .catch((err: unknown) => {
        if (live) onFailed(err);
      });
    return () => {
      live = false;
    };
    // The caller names what reloads it, as with useEffect.
  }, deps);
}
