import { useState } from 'react';
import { useNotify } from 'react-admin';
import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { errorDescriptions } from '../../providers/httpClient';

/**
 * Deleting the record a page shows, after its Confirm dialog: `remove` calls `del`, drops the record's
 * cached query (`queryKey`), refreshes its list (`listKey`), toasts `deletedText` and goes back to the list
 * (`backTo`); a failure is toasted and the page stays.
 */
export function useRecordDelete({ queryKey, listKey, del, deletedText, backTo }: { queryKey: readonly unknown[]; listKey: readonly unknown[]; del: () => Promise<unknown>; deletedText: string; backTo: string }) {
  const notify = useNotify();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [confirming, setConfirming] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const remove = async () => {
    setDeleting(true);
    try {
      await del();
      queryClient.removeQueries({ queryKey });
      await queryClient.invalidateQueries({ queryKey: listKey, exact: true });
      notify(deletedText, { type: 'success' });
      void navigate(backTo);
    } catch (err) {
      for (const message of errorDescriptions(err)) notify(message, { type: 'error' });
    } finally {
      setDeleting(false);
      setConfirming(false);
    }
  };
  return { confirming, deleting, ask: () => setConfirming(true), close: () => setConfirming(false), remove };
}

export type RecordDeletion = ReturnType<typeof useRecordDelete>;
