import { lazy } from 'react';
import { Navigate, Route, useParams } from 'react-router';
import { RequireLevel } from '../layout/RequireLevel';

const PowerUpsPage = lazy(() => import('./PowerUpsPage').then((m) => ({ default: m.PowerUpsPage })));
const FacebookPowerUpPage = lazy(() => import('./FacebookPowerUpPage').then((m) => ({ default: m.FacebookPowerUpPage })));
const WhatsappPowerUpPage = lazy(() => import('./WhatsappPowerUpPage').then((m) => ({ default: m.WhatsappPowerUpPage })));

/** /power-ups/bot/{id?}: the bots live in the settings (SPEC §2 Bot). */
function BotRedirect() {
  const { id } = useParams();
  return <Navigate to={id ? `/settings/bot/${id}` : '/settings/bot'} replace />;
}

/** SPEC §2 Power-ups (level 6+, like the channels they add). /power-ups/facebook is the Messenger helper's. */
export const powerUpsRoutes = [
  <Route key="power-ups" path="/power-ups" element={<RequireLevel level={6}><PowerUpsPage /></RequireLevel>} />,
  <Route key="power-ups-facebook" path="/power-ups/facebook/:id?" element={<RequireLevel level={6}><FacebookPowerUpPage /></RequireLevel>} />,
  <Route key="power-ups-whatsapp" path="/power-ups/whatsapp/:id?" element={<RequireLevel level={6}><WhatsappPowerUpPage /></RequireLevel>} />,
  <Route key="power-ups-bot" path="/power-ups/bot/:id?" element={<BotRedirect />} />,
];
