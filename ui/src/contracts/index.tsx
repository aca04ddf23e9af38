import { lazy } from 'react';
import { Route } from 'react-router';
import { RequireLevel } from '../layout/RequireLevel';

const ContractsPage = lazy(() => import('./ContractsPage'));

const page = (
  <RequireLevel level={6}>
    <ContractsPage />
  </RequireLevel>
);

/** SPEC §2 Contracts (leftover, level 6+): /contracts/{id?} the list (an id opens its detail), /contract/{id} the detail over the list. */
export const contractsRoutes = [<Route key="contracts" path="/contracts/:id?" element={page} />, <Route key="contract" path="/contract/:id" element={page} />];
