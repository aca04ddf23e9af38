import { useState } from 'react';
import { Confirm, useNotify } from 'react-admin';
import { texts } from '../i18n/ptBR';
import { failureToasts } from '../forms/serverErrors';

/** The deletion confirmation every list uses: permanent, cannot be undone (SPEC §5). */
export function DeleteConfirm({ isOpen, loading, title, onConfirm, onClose }: { isOpen: boolean; loading?: boolean; title: string; onConfirm: () => void; onClose: () => void }) {
  return (
    <Confirm
      isOpen={isOpen}
      loading={loading}
      title={title}
      content={texts.inboxPanels.deleteConfirm}
      confirm={texts.inboxPanels.delete}
      cancel={texts.common.cancel}
      onConfirm={onConfirm}
      onClose={onClose}
    />
  );
}

/**
 * Deleting one item of a list behind DeleteConfirm: `ask(item)` opens the confirmation (spread `confirmProps`
 * on it); confirming runs `remove` with the item's id, toasts `deletedText` or what failed, and closes.
 */
export function useItemDeletion<T extends { id: number }>(remove: { mutateAsync: (id: number) => Promise<unknown>; isPending: boolean }, deletedText: string) {
  const notify = useNotify();
  const [item, setItem] = useState<T | null>(null);
  const confirm = async () => {
    if (!item) return;
    try {
      await remove.mutateAsync(item.id);
      notify(deletedText, { type: 'success' });
    } catch (err) {
      for (const message of failureToasts(err)) notify(message, { type: 'error' });
    }
    setItem(null);
  };
  return { item, ask: setItem, confirmProps: { isOpen: item !== null, loading: remove.isPending, onConfirm: () => void confirm(), onClose: () => setItem(null) } };
}
