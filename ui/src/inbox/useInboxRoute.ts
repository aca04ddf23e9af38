import { useCallback } from 'react';
import { useNavigate, useParams } from 'react-router';
import { NOTHING_SELECTED } from './constants';

// /inbox/new keeps showing the segment the operator was in, with nothing selected.
let lastSegment = 'all';

/** /inbox/:segment/:id? read as the segment whose list is shown and the open conversation. */
export function useInboxRoute() {
  const params = useParams();
  const navigate = useNavigate();
  const raw = params.segment ?? 'all';
  if (raw !== NOTHING_SELECTED) lastSegment = raw;
  const segment = raw === NOTHING_SELECTED ? lastSegment : raw;
  const openId = raw === NOTHING_SELECTED ? undefined : Number(params.id) > 0 ? Number(params.id) : undefined;

  const openConversation = useCallback((id: number) => void navigate(`/inbox/${segment}/${id}`), [navigate, segment]);
  const closeConversation = useCallback(() => void navigate(`/inbox/${NOTHING_SELECTED}`), [navigate]);
  return { segment, openId, openConversation, closeConversation };
}
