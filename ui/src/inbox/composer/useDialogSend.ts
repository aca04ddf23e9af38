import { useState } from 'react';
import { useNotify } from 'react-admin';

/**
 * Sending what a composer dialog holds (files, a recording): `send` hands it to `onSend`; while it goes
 * `sending` is true (the dialog stays open); once sent it toasts `sentText` and closes the dialog.
 */
export function useDialogSend<T>(onSend: (payload: T) => Promise<boolean>, sentText: string, onClose: () => void) {
  const notify = useNotify();
  const [sending, setSending] = useState(false);
  const send = async (payload: T) => {
    setSending(true);
    const ok = await onSend(payload);
    setSending(false);
    if (ok) {
      notify(sentText, { type: 'success' });
      onClose();
    }
  };
  return { sending, send };
}
