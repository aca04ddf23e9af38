/**
 * Inbox shortcuts (↑/↓, j/k, Enter, Esc) are document-wide but never steal keys from a text field, a
 * dialog, a menu or a region that scrolls with its own keys (`data-own-keys`).
 */
export function isTypingTarget(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target.isContentEditable) return true;
  const tag = target.tagName;
  if (tag === 'INPUT' || tag === 'TEXTAREA' || tag === 'SELECT') return true;
  return Boolean(target.closest('[role="dialog"], [role="menu"], [role="presentation"], [data-own-keys]'));
}

/** Whether any modal or menu is open: Escape belongs to it then. */
export const overlayOpen = () => Boolean(document.querySelector('.MuiModal-root:not(.MuiModal-hidden), .MuiPopover-root'));
