import { lazy } from 'react';
import { Route } from 'react-router';
import { RequireLevel } from '../../layout/RequireLevel';

const AssignmentRulesScreen = lazy(() => import('./AssignmentRulesScreen').then((m) => ({ default: m.AssignmentRulesScreen })));

/** SPEC §2 Atribuição Automática: /settings/assignment-rules/:id? ('new' creates, active toggle in the list); level 6+ (SPEC §6). */
export const assignmentRulesRoutes = [
  <Route key="assignment-rules" path="assignment-rules/:id?" element={<RequireLevel level={6}><AssignmentRulesScreen /></RequireLevel>} />,
];
