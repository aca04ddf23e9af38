import { Confirm } from 'react-admin';
import { texts } from '../i18n/ptBR';

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
