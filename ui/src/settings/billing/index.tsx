import { lazy, type ComponentType, type LazyExoticComponent } from 'react';
import { Navigate, Route } from 'react-router';
import { RequireLevel } from '../../layout/RequireLevel';

const LicensePage = lazy(() => import('./LicensePage').then((m) => ({ default: m.LicensePage })));
const SubscriptionPage = lazy(() => import('./SubscriptionPage').then((m) => ({ default: m.SubscriptionPage })));
const PaymentPage = lazy(() => import('./PaymentPage').then((m) => ({ default: m.PaymentPage })));
const InvoicesPage = lazy(() => import('./InvoicesPage').then((m) => ({ default: m.InvoicesPage })));

/**
 * SPEC §2 Billing, relative to /settings, each with the lowest level that opens it. Reading (license,
 * invoices, a payment page: paying happens in the bank's app) is level 6+, the user menu's 'Assinatura';
 * changing the plan is 9+, the settings tab (SPEC §6, both readings kept).
 */
const PAGES: [path: string, level: number, Page: LazyExoticComponent<ComponentType>][] = [
  ['billing/license', 6, LicensePage],
  ['billing/invoices', 6, InvoicesPage],
  ['billing/payment/:id', 6, PaymentPage],
  ['billing/subscription', 9, SubscriptionPage],
];

export const billingSettingsRoutes = [
  <Route key="billing" path="billing" element={<Navigate to="/settings/billing/license" replace />} />,
  ...PAGES.map(([path, level, Page]) => (
    <Route
      key={path}
      path={path}
      element={
        <RequireLevel level={level}>
          <Page />
        </RequireLevel>
      }
    />
  )),
];
