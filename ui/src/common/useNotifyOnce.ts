import { useCallback } from 'react';
import { useNotify } from 'react-admin';

/** When each text was last shown as a toast (one page: one queue of toasts). */
const shownAt = new Map<string, number>();
/** The same text again within this long is the same news: the saver's own answer and the realtime event of it. */
const SAME_NEWS_MS = 3000;

/**
 * react-admin's notify, except that a text already shown in the last few seconds is not queued again. A saved
 * workspace is told twice: by the answer to the save and by the workspace's realtime event (everyone in it
 * hears of the change). When the event came first, the second toast arriving during the first one's opening
 * left neither on screen (e2e settings, 2026-11-29); one toast is also what the person should see.
 */
export function useNotifyOnce(): ReturnType<typeof useNotify> {
  const notify = useNotify();
  return useCallback<ReturnType<typeof useNotify>>(
    (message, options) => {
      if (typeof message === 'string') {
        const now = Date.now();
        const last = shownAt.get(message);
        if (last !== undefined && now - last < SAME_NEWS_MS) return;
        shownAt.set(message, now);
      }
      notify(message, options);
    },
    [notify],
  );
}
