import { useCallback } from 'react';
import { useNavigate } from 'react-router';
import { useNotify } from 'react-admin';
import { useQueryClient } from '@tanstack/react-query';
import { shellTexts as texts } from '../i18n/shellTexts';
import { format } from '../i18n/format';
import { errorDescriptions } from '../providers/httpClient';
import { storeSessionResponse, type LoginData, type WorkspaceSession } from '../providers/session';
import { renewToken } from '../providers/tokenRenewal';

/**
 * Entering another workspace: stores its session, drops every cached query of the previous one and
 * opens its inbox with the SPEC toast.
 */
export function useEnterWorkspace() {
  const navigate = useNavigate();
  const notify = useNotify();
  const queryClient = useQueryClient();
  return useCallback(
    (data: (LoginData | WorkspaceSession) & { notice?: string }) => {
      const workspace = storeSessionResponse(data);
      queryClient.removeQueries();
      const switched = format(texts.layout.userMenu.switched, { name: workspace.workspace });
      // A new workspace without a trial (one trial per e-mail, docs/auth.md) says why, with the switch.
      const notice = 'notice' in data && typeof data.notice === 'string' ? data.notice : undefined;
      if (notice) notify(`${switched}. ${notice}`, { type: 'warning', autoHideDuration: 12_000 });
      else notify(switched, { type: 'success' });
      void navigate('/inbox/all');
    },
    [navigate, notify, queryClient],
  );
}

/** Switch through POST /operators/renew-token {renewalToken, workspaceId}. */
export function useSwitchWorkspace() {
  const enter = useEnterWorkspace();
  const notify = useNotify();
  return useCallback(
    async (workspaceId: number) => {
      try {
        enter(await renewToken(workspaceId));
      } catch (err) {
        for (const message of errorDescriptions(err)) notify(message, { type: 'error' });
      }
    },
    [enter, notify],
  );
}
