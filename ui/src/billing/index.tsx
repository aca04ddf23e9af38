import { lazy } from 'react';
import { Route } from 'react-router';

const InvoicePage = lazy(() => import('./InvoicePage').then((m) => ({ default: m.InvoicePage })));

/** SPEC §2: the invoice page /invoices/{id}/{transactionId}, in the logged-in app (reading invoices is level 6+). */
export const billingRoutes = [<Route key="invoice" path="/invoices/:id/:transactionId" element={<InvoicePage />} />];
