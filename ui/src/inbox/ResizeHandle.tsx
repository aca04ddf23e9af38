import { useRef, type KeyboardEvent, type PointerEvent } from 'react';
import Box from '@mui/material/Box';

interface Props {
  label: string;
  width: number;
  min: number;
  max: number;
  /** 1: dragging right widens (a pane on the left); -1: dragging left widens (a pane on the right). */
  direction: 1 | -1;
  onResize: (width: number) => void;
}

/** A vertical splitter: drag with the pointer, or focus it and use the arrow keys. */
export function ResizeHandle({ label, width, min, max, direction, onResize }: Props) {
  const start = useRef<{ x: number; width: number } | null>(null);
  const clamp = (w: number) => Math.round(Math.min(max, Math.max(min, w)));

  const onPointerDown = (e: PointerEvent<HTMLDivElement>) => {
    e.currentTarget.setPointerCapture(e.pointerId);
    start.current = { x: e.clientX, width };
  };
  const onPointerMove = (e: PointerEvent<HTMLDivElement>) => {
    if (!start.current) return;
    onResize(clamp(start.current.width + direction * (e.clientX - start.current.x)));
  };
  const onPointerUp = () => {
    start.current = null;
  };
  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    const step = e.shiftKey ? 50 : 10;
    if (e.key === 'ArrowRight') onResize(clamp(width + direction * step));
    else if (e.key === 'ArrowLeft') onResize(clamp(width - direction * step));
    else return;
    e.preventDefault();
    e.stopPropagation();
  };

  return (
    <Box
      role="separator"
      aria-orientation="vertical"
      aria-label={label}
      aria-valuemin={min}
      aria-valuemax={max}
      aria-valuenow={width}
      tabIndex={0}
      onPointerDown={onPointerDown}
      onPointerMove={onPointerMove}
      onPointerUp={onPointerUp}
      onPointerCancel={onPointerUp}
      onKeyDown={onKeyDown}
      sx={{
        width: 6,
        mx: '-3px',
        flexShrink: 0,
        cursor: 'col-resize',
        zIndex: 1,
        touchAction: 'none',
        '&:hover, &:focus-visible': { bgcolor: 'primary.light', outline: 'none' },
      }}
    />
  );
}
