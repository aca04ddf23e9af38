import { useRef, useState, type KeyboardEvent as ReactKeyboardEvent, type MouseEvent as ReactMouseEvent, type PointerEvent as ReactPointerEvent } from 'react';
import { dropIndex } from './sortOrder';

/** SPEC §5: paths and actions are dragged after holding the pointer for 200 ms, so clicks and scrolls stay clicks and scrolls. */
export const PRESS_DELAY_MS = 200;
/** Moving farther than this before the delay ends cancels the press (the user is scrolling or panning). */
const TOLERANCE_PX = 6;

interface DragState {
  from: number;
  to: number;
}

/**
 * A small vertical sortable list on pointer events: press an item for PRESS_DELAY_MS, then drag it; the drop
 * calls onMove(from, to). `itemProps(i)` goes on each item; `dragging` says which item moves and where to.
 * A press that became a drag swallows the click that follows it. Alt+↑/↓ moves the focused item.
 */
export function usePressSortable(onMove: (from: number, to: number) => void) {
  const [drag, setDrag] = useState<DragState | null>(null);
  const items = useRef<(HTMLElement | null)[]>([]);
  const press = useRef<{ timer: number; x: number; y: number; index: number; pointerId: number; el: HTMLElement } | null>(null);
  const dragRef = useRef<DragState | null>(null);
  const suppressClick = useRef(false);

  const middles = () => items.current.filter((el): el is HTMLElement => el !== null).map((el) => {
    const r = el.getBoundingClientRect();
    return r.top + r.height / 2;
  });

  const cancelPress = () => {
    if (press.current) window.clearTimeout(press.current.timer);
    press.current = null;
  };

  const itemProps = (index: number) => ({
    ref: (el: HTMLElement | null) => {
      items.current[index] = el;
    },
    'data-sort-index': index,
    onPointerDown: (e: ReactPointerEvent<HTMLElement>) => {
      if (e.button !== 0) return;
      // A press on a connection handle starts a connection, not a reorder.
      if ((e.target as Element).closest('.react-flow__handle')) return;
      e.stopPropagation();
      const el = e.currentTarget;
      const { clientX: x, clientY: y, pointerId } = e;
      cancelPress();
      press.current = {
        x,
        y,
        index,
        pointerId,
        el,
        timer: window.setTimeout(() => {
          if (!press.current) return;
          try {
            el.setPointerCapture(pointerId);
          } catch {
            // The pointer may already be gone; the drag then ends at the next pointerup anywhere.
          }
          dragRef.current = { from: index, to: index };
          setDrag(dragRef.current);
        }, PRESS_DELAY_MS),
      };
    },
    onPointerMove: (e: ReactPointerEvent<HTMLElement>) => {
      if (dragRef.current) {
        e.stopPropagation();
        const to = dropIndex(middles(), e.clientY, dragRef.current.from);
        if (to !== dragRef.current.to) {
          dragRef.current = { ...dragRef.current, to };
          setDrag(dragRef.current);
        }
        return;
      }
      const p = press.current;
      if (p && Math.hypot(e.clientX - p.x, e.clientY - p.y) > TOLERANCE_PX) cancelPress();
    },
    onPointerUp: (e: ReactPointerEvent<HTMLElement>) => {
      cancelPress();
      const d = dragRef.current;
      if (!d) return;
      e.stopPropagation();
      dragRef.current = null;
      setDrag(null);
      // The click that may follow this pointerup belongs to the drag; a later one is a click again.
      suppressClick.current = true;
      window.setTimeout(() => (suppressClick.current = false), 0);
      if (d.to !== d.from) onMove(d.from, d.to);
    },
    onPointerCancel: () => {
      cancelPress();
      dragRef.current = null;
      setDrag(null);
    },
    /** Keyboard users reorder with Alt+↑ / Alt+↓ on the focused item. */
    onKeyDown: (e: ReactKeyboardEvent<HTMLElement>) => {
      if (!e.altKey || (e.key !== 'ArrowUp' && e.key !== 'ArrowDown')) return;
      e.preventDefault();
      e.stopPropagation();
      const to = index + (e.key === 'ArrowUp' ? -1 : 1);
      if (to >= 0 && to < items.current.filter(Boolean).length) onMove(index, to);
    },
    onClickCapture: (e: ReactMouseEvent<HTMLElement>) => {
      if (suppressClick.current) {
        suppressClick.current = false;
        e.stopPropagation();
        e.preventDefault();
      }
    },
  });

  return { itemProps, dragging: drag };
}
