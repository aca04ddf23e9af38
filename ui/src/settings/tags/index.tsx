import { lazy } from 'react';
import { Route } from 'react-router';

const TagsScreen = lazy(() => import('./TagsScreen').then((m) => ({ default: m.TagsScreen })));

/** /settings/tags/:id? — every level (SPEC §6). */
export const tagsRoutes = [<Route key="tags" path="tags/:id?" element={<TagsScreen />} />];
