import { memo } from 'react';
import { BaseEdge, EdgeLabelRenderer, getBezierPath, type Edge, type EdgeProps } from '@xyflow/react';
import { LABEL_MAX_WIDTH, LABEL_OFFSET } from './autoLayout';

export type JumpEdgeType = Edge<Record<string, never>, 'jump'>;

/**
 * A jump between paths. Its label (a menu option's name, 'falha') is HTML drawn above the nodes, just right
 * of the source handle, so neither the canvas's SVG nor another node can cut it; a label wider than
 * LABEL_MAX_WIDTH ends in '…' and shows its whole text on hover (`title`).
 */
export const JumpEdge = memo(function JumpEdge({ id, sourceX, sourceY, targetX, targetY, sourcePosition, targetPosition, markerEnd, style, label }: EdgeProps<JumpEdgeType>) {
  const [path] = getBezierPath({ sourceX, sourceY, sourcePosition, targetX, targetY, targetPosition });
  const text = typeof label === 'string' ? label : '';
  return (
    <>
      <BaseEdge id={id} path={path} markerEnd={markerEnd} style={style} />
      {text ? (
        <EdgeLabelRenderer>
          <div
            className="nodrag nopan bot-edge-label"
            data-edge={id}
            title={text}
            style={{
              position: 'absolute',
              transform: `translate(${sourceX + LABEL_OFFSET}px, ${sourceY}px) translateY(-50%)`,
              maxWidth: LABEL_MAX_WIDTH,
              boxSizing: 'border-box',
              padding: '1px 8px',
              font: '500 12px Roboto, Helvetica, Arial, sans-serif',
              lineHeight: '16px',
              whiteSpace: 'nowrap',
              overflow: 'hidden',
              textOverflow: 'ellipsis',
              background: '#fff',
              color: '#344054',
              border: '1px solid #D0D5DD',
              borderRadius: 8,
              pointerEvents: 'all',
              zIndex: 2000,
            }}
          >
            {text}
          </div>
        </EdgeLabelRenderer>
      ) : null}
    </>
  );
});
