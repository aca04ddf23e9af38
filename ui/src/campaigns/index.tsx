import { Route } from 'react-router';
import { texts } from '../i18n/ptBR';
import { ComingSoon } from '../layout/ComingSoon';
import { RequireLevel } from '../layout/RequireLevel';

/** SPEC §2 Campaigns (/campaigns/{id?}, level 6+); the campaigns arrive in a later issue. */
export const campaignsRoutes = [
  <Route
    key="campaigns"
    path="/campaigns/:id?"
    element={
      <RequireLevel level={6}>
        <ComingSoon title={texts.comingSoon.campaigns} />
      </RequireLevel>
    }
  />,
];
