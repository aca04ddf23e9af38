import { lazy } from 'react';
import { Route } from 'react-router';

const ContactsPage = lazy(() => import('./ContactsPage'));
const ContactPage = lazy(() => import('./ContactPage'));

/** /contacts and /contacts/:id (docs/contacts.md), the name SPEC's reports use for customers. */
export const contactsRoutes = [<Route key="contacts" path="/contacts" element={<ContactsPage />} />, <Route key="contact" path="/contacts/:id" element={<ContactPage />} />];
