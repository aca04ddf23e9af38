import { lazy } from 'react';
import { Route } from 'react-router';

const KanbanPage = lazy(() => import('./KanbanPage'));

/**
 * The kanban of conversations (docs/kanban.md) at /inbox/kanban, reached from the inbox's 'Quadro' button. A
 * static path ranks above the inbox's /inbox/:segment/:id?, so 'kanban' is never read as a segment.
 */
export const kanbanRoutes = [<Route key="kanban" path="/inbox/kanban" element={<KanbanPage />} />];
