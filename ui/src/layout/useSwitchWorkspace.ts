import { useCallback } from 'react';
import { useNavigate } from 'react-router';
import { useNotify } from 'react-admin';
import { useQueryClient } from '@tanstack/react-query';
import { texts } from '../i18n/ptBR';
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
    (data: LoginData | WorkspaceSession) => {
      const workspace = storeSessionResponse(data);
      queryClient.removeQueries();
      notify(format(texts.layout.userMenu.switched, { name: workspace.workspace }), { type: 'success' });
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
