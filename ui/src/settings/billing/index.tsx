import { lazy } from 'react';
import { Navigate, Route } from 'react-router';
import { RequireLevel } from '../../layout/RequireLevel';

const LicensePage = lazy(() => import('./LicensePage').then((m) => ({ default: m.LicensePage })));
const SubscriptionPage = lazy(() => import('./SubscriptionPage').then((m) => ({ default: m.SubscriptionPage })));
const PaymentPage = lazy(() => import('./PaymentPage').then((m) => ({ default: m.PaymentPage })));
const InvoicesPage = lazy(() => import('./InvoicesPage').then((m) => ({ default: m.InvoicesPage })));

/**
 * SPEC §2 Billing, relative to /settings. Reading (license, invoices) is level 6+, the user menu's
 * 'Assinatura', and so is a payment page (paying happens in the bank's app); changing the plan is 9+, the settings
 * tab (SPEC §6, both readings kept).
 */
export const billingSettingsRoutes = [
  <Route key="billing" path="billing" element={<Navigate to="/settings/billing/license" replace />} />,
  <Route
    key="billing-license"
    path="billing/license"
    element={
      <RequireLevel level={6}>
        <LicensePage />
      </RequireLevel>
    }
  />,
  <Route
    key="billing-invoices"
    path="billing/invoices"
    element={
      <RequireLevel level={6}>
        <InvoicesPage />
      </RequireLevel>
    }
  />,
  <Route
    key="billing-subscription"
    path="billing/subscription"
    element={
      <RequireLevel level={9}>
        <SubscriptionPage />
      </RequireLevel>
    }
  />,
  <Route
    key="billing-payment"
    path="billing/payment/:id"
    element={
      <RequireLevel level={6}>
        <PaymentPage />
      </RequireLevel>
    }
  />,
];
