import { lazy } from 'react';
import { Route } from 'react-router';

const QuickPhrasesScreen = lazy(() => import('./QuickPhrasesScreen').then((m) => ({ default: m.QuickPhrasesScreen })));

/** /settings/quick-phrases/:id? — every level (SPEC §6). */
export const quickPhrasesRoutes = [<Route key="quick-phrases" path="quick-phrases/:id?" element={<QuickPhrasesScreen />} />];
