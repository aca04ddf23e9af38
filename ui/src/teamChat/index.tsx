import { lazy } from 'react';
import { Route } from 'react-router';

const TeamChatPage = lazy(() => import('./TeamChatPage'));

/** The team chat (docs/team-chat.md): /equipe (the rooms) and /equipe/{roomId} (one room), every level. */
export const teamChatRoutes = [<Route key="team" path="/equipe/:roomId?" element={<TeamChatPage />} />];
