import { lazy, type ReactNode } from 'react';
import { Route } from 'react-router';
import { RequireLevel } from '../../layout/RequireLevel';

const ChannelListPage = lazy(() => import('./ChannelListPage').then((m) => ({ default: m.ChannelListPage })));
const AddChannelPage = lazy(() => import('./AddChannelPage').then((m) => ({ default: m.AddChannelPage })));
const WidgetChannelPage = lazy(() => import('./widget/WidgetChannelPage').then((m) => ({ default: m.WidgetChannelPage })));
const ChannelRedirect = lazy(() => import('./ChannelRedirect').then((m) => ({ default: m.ChannelRedirect })));
const WhatsappChannelPage = lazy(() => import('./whatsapp/WhatsappChannelPage').then((m) => ({ default: m.WhatsappChannelPage })));
const CustomChannelPage = lazy(() => import('./custom/CustomChannelPage').then((m) => ({ default: m.CustomChannelPage })));
const TelegramChannelPage = lazy(() => import('./telegram/TelegramChannelPage').then((m) => ({ default: m.TelegramChannelPage })));
const EmailChannelPage = lazy(() => import('./email/EmailChannelPage').then((m) => ({ default: m.EmailChannelPage })));
const FacebookChannelPage = lazy(() => import('./facebook/FacebookChannelPage').then((m) => ({ default: m.FacebookChannelPage })));
const InstagramChannelPage = lazy(() => import('./instagram/InstagramChannelPage').then((m) => ({ default: m.InstagramChannelPage })));
const InDevelopmentPage = lazy(() => import('./InDevelopmentPage').then((m) => ({ default: m.InDevelopmentPage })));

/** SPEC §6: channels are managed from level 6. */
const master = (page: ReactNode) => <RequireLevel level={6}>{page}</RequireLevel>;

/** SPEC §2 Channels, under /settings: list, a channel by id alone, choose a type, and each type's page (only the chat widget so far). */
export const channelsRoutes = [
  <Route key="channels" path="channels" element={master(<ChannelListPage />)} />,
  <Route key="channels-add" path="channels/add" element={master(<AddChannelPage />)} />,
  <Route key="channels-id" path="channels/:id" element={master(<ChannelRedirect />)} />,
  <Route key="channels-add-widget" path="channels/add/chat-widget" element={master(<WidgetChannelPage />)} />,
  <Route key="channels-widget" path="channels/chat-widget/:id" element={master(<WidgetChannelPage />)} />,
  <Route key="channels-add-whatsapp" path="channels/add/whatsapp" element={master(<WhatsappChannelPage />)} />,
  <Route key="channels-whatsapp" path="channels/whatsapp/:id" element={master(<WhatsappChannelPage />)} />,
  <Route key="channels-add-custom" path="channels/add/custom" element={master(<CustomChannelPage />)} />,
  <Route key="channels-custom" path="channels/custom/:id" element={master(<CustomChannelPage />)} />,
  <Route key="channels-add-telegram" path="channels/add/telegram" element={master(<TelegramChannelPage />)} />,
  <Route key="channels-telegram" path="channels/telegram/:id" element={master(<TelegramChannelPage />)} />,
  <Route key="channels-add-email" path="channels/add/email" element={master(<EmailChannelPage />)} />,
  <Route key="channels-email" path="channels/email/:id" element={master(<EmailChannelPage />)} />,
  <Route key="channels-add-facebook" path="channels/add/facebook" element={master(<FacebookChannelPage />)} />,
  <Route key="channels-facebook" path="channels/facebook/:id" element={master(<FacebookChannelPage />)} />,
  <Route key="channels-add-instagram" path="channels/add/instagram" element={master(<InstagramChannelPage />)} />,
  <Route key="channels-instagram" path="channels/instagram/:id" element={master(<InstagramChannelPage />)} />,
  <Route key="channels-add-other" path="channels/add/:type" element={master(<InDevelopmentPage />)} />,
  <Route key="channels-other" path="channels/:type/:id" element={master(<InDevelopmentPage />)} />,
];
