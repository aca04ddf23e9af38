import { lazy } from 'react';
import { Route } from 'react-router';
import { RequireLevel } from '../../layout/RequireLevel';

const PluginsScreen = lazy(() => import('./PluginsScreen').then((m) => ({ default: m.PluginsScreen })));

/** SPEC §2 Integrations: Plugins /settings/plugins/:id? (level 6+, SPEC §6). */
export const pluginsRoutes = [<Route key="plugins" path="plugins/:id?" element={<RequireLevel level={6}><PluginsScreen /></RequireLevel>} />];
