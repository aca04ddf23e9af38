import { lazy, type ReactNode } from 'react';
import { Route } from 'react-router';
import { RequireLevel } from '../../layout/RequireLevel';

const AssignmentRulesListPage = lazy(() => import('./AssignmentRulesListPage').then((m) => ({ default: m.AssignmentRulesListPage })));
const AssignmentRulePage = lazy(() => import('./AssignmentRulePage').then((m) => ({ default: m.AssignmentRulePage })));

/** SPEC §6: assignment rules are managed from level 6. */
const master = (page: ReactNode) => <RequireLevel level={6}>{page}</RequireLevel>;

/** SPEC §2 Atribuição Automática: /settings/assignment-rules/:id? ('new' creates), active toggle in the list. */
export const assignmentRulesRoutes = [
  <Route key="assignment-rules" path="assignment-rules" element={master(<AssignmentRulesListPage />)} />,
  <Route key="assignment-rules-id" path="assignment-rules/:id" element={master(<AssignmentRulePage />)} />,
];
