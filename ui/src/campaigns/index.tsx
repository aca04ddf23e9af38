import { lazy } from 'react';
import { Route } from 'react-router';
import { RequireLevel } from '../layout/RequireLevel';

const CampaignsPage = lazy(() => import('./CampaignsPage'));

/** SPEC §2 Campaigns (/campaigns/{id?}, level 6+; no sidebar there): list, wizard and detail. */
export const campaignsRoutes = [
  <Route
    key="campaigns"
    path="/campaigns/:id?"
    element={
      <RequireLevel level={6}>
        <CampaignsPage />
      </RequireLevel>
    }
  />,
];
