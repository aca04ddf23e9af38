import { lazy, type ReactNode } from 'react';
import { Route } from 'react-router';
import { RequireLevel } from '../../layout/RequireLevel';

const BotListPage = lazy(() => import('./BotListPage').then((m) => ({ default: m.BotListPage })));
// The editor (React Flow) is its own chunk: nothing outside /settings/bot/:id loads it.
const BotEditorPage = lazy(() => import('./editor/BotEditorPage').then((m) => ({ default: m.BotEditorPage })));

/** SPEC §6: bots are managed from level 6. */
const master = (page: ReactNode) => <RequireLevel level={6}>{page}</RequireLevel>;

/**
 * SPEC §2 Bot: /settings/bot (list), /settings/bot/{id|new} with its sub-routes (configuration, path/new,
 * path/{guid}, path/{guid}/edit, path/{guid}/{action}/{guid|new}) handled inside the editor; anything
 * else under /settings/bot redirects to the list.
 */
export const botRoutes = [
  <Route key="bot" path="bot" element={master(<BotListPage />)} />,
  <Route key="bot-id" path="bot/:id/*" element={master(<BotEditorPage />)} />,
];
