import { lazy } from 'react';
import { preloadableLazy } from '../common/lazyLoad';

/**
 * The parts of the inbox built in contact/, segments/, quickPhrases/ and newMessage/. The dialogs and the
 * contact panel load on first use, the sidebar's filters menu when the browser is idle, so they stay out of
 * the inbox route's initial JavaScript.
 */
export const ContactPanel = lazy(() => import('./contact/ContactPanel').then((m) => ({ default: m.ContactPanel })));
export const SegmentEditorDialog = lazy(() => import('./segments/SegmentEditorDialog').then((m) => ({ default: m.SegmentEditorDialog })));
export const SegmentBrowserDialog = lazy(() => import('./segments/SegmentBrowserDialog').then((m) => ({ default: m.SegmentBrowserDialog })));
export const QuickPhraseDialog = lazy(() => import('./quickPhrases/QuickPhraseDialog').then((m) => ({ default: m.QuickPhraseDialog })));
export const ManageFiltersMenu = preloadableLazy(() => import('./segments/ManageFiltersMenu').then((m) => m.ManageFiltersMenu));
export const NewMessageDialog = lazy(() => import('./newMessage/NewMessageDialog').then((m) => ({ default: m.NewMessageDialog })));
