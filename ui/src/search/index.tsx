import { lazy } from 'react';
import { Route } from 'react-router';

const SearchPage = lazy(() => import('./SearchPage'));

/** /search?q= (docs/search.md): one search over every conversation the viewer may see. */
export const searchRoutes = [<Route key="search" path="/search" element={<SearchPage />} />];
