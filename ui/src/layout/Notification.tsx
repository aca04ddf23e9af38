import { isValidElement, lazy, useCallback, useEffect, useState } from 'react';
import { CloseNotificationContext, useNotificationContext, type NotificationPayload } from 'react-admin';
import type { Theme } from '@mui/material/styles';
import { LazyPart } from '../common/lazyLoad';

const PREFIX = 'RaNotification';
// The toast's code loads with the first notification, not with the inbox's first paint.
const Snackbar = lazy(() => import('@mui/material/Snackbar'));

/** The toast of each type: react-admin's colours (and class names), which the screens were made with. */
const toastStyles = (theme: Theme) => ({
  ...Object.fromEntries(
    (['success', 'error', 'warning'] as const).map((type) => [`& .${PREFIX}-${type}`, { backgroundColor: theme.palette[type].main, color: theme.palette[type].contrastText }]),
  ),
  [`& .${PREFIX}-multiLine`]: { whiteSpace: 'pre-wrap' },
});

/**
 * Shows what `useNotify()` queued, one toast at a time (4 s unless the call says otherwise, a newer one closing it), as react-admin's
 * `<Notification>` did: it reads the same NotificationContext, so every `useNotify` from 'react-admin' still
 * lands here, without react-admin's i18n, undo and store contexts in the app (bench/uiWeight.ts). Messages
 * are our own pt-BR strings (or elements), shown as they are.
 */
export function Notification() {
  const { notifications, takeNotification } = useNotificationContext();
  const [current, setCurrent] = useState<NotificationPayload>();
  const [open, setOpen] = useState(false);

  useEffect(() => {
    if (!notifications.length) return;
    if (current) {
      // A newer message closes the one on screen (react-admin's behaviour): "Campanha criada." does not wait for an earlier error to time out.
      if (open) setOpen(false);
      return;
    }
    const next = takeNotification();
    if (next) {
      setCurrent(next);
      setOpen(true);
    }
  }, [notifications, current, open, takeNotification]);

  const close = useCallback(() => setOpen(false), []);
  if (!current) return null;

  const { message, type, notificationOptions } = current;
  // eslint-disable-next-line @typescript-eslint/no-unused-vars -- react-admin options that are not Snackbar props
  const { autoHideDuration, multiLine, undoable, messageArgs, ...options } = notificationOptions ?? {};
  return (
    <CloseNotificationContext.Provider value={close}>
      <LazyPart>
        <Snackbar
          open={open}
          onClose={close}
          autoHideDuration={autoHideDuration === undefined ? 4000 : (autoHideDuration ?? undefined)}
          anchorOrigin={{ vertical: 'bottom', horizontal: 'center' }}
          message={typeof message === 'string' ? message : undefined}
          sx={toastStyles}
          {...options}
          slotProps={{
            transition: { onExited: () => setCurrent(undefined) },
            content: { className: [`${PREFIX}-${type}`, multiLine ? `${PREFIX}-multiLine` : ''].join(' ').trim() },
          }}
        >
          {typeof message !== 'string' && isValidElement(message) ? <div>{message}</div> : undefined}
        </Snackbar>
      </LazyPart>
    </CloseNotificationContext.Provider>
  );
}
