import { Routes } from 'react-router';
import { settingsRoutes } from '.';

/**
 * Every /settings route, loaded on the first visit to a settings page (AdminApp mounts it lazily under
 * /settings/*), so the settings screens stay out of the inbox route's initial JavaScript.
 */
export default function SettingsRoutes() {
  return <Routes>{settingsRoutes}</Routes>;
}
