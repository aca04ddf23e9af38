import { Navigate, Route } from 'react-router';
import { InboxPage } from './InboxPage';

/** SPEC §2 Inbox routes: /inbox redirects to /inbox/all; /inbox/{segment}/{id?}. */
export const inboxRoutes = [
  <Route key="inbox" path="/inbox" element={<Navigate to="/inbox/all" replace />} />,
  <Route key="inbox-segment" path="/inbox/:segment/:id?" element={<InboxPage />} />,
];
