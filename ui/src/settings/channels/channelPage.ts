import { useState } from 'react';
import type { FieldValues, UseFormSetError } from 'react-hook-form';
import { useNotify } from 'react-admin';
import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { applyServerErrors, failureToasts } from '../../forms/serverErrors';
import { api, errorDescriptions } from '../../providers/httpClient';
import { texts } from '../../i18n/ptBR';
import { channelsKey } from './channelKeys';

/** Channels that go down only when their token is revoked: they never reconnect by themselves. */
const TOKEN_CHANNELS = ['telegram', 'facebook', 'instagram'];

/**
 * 'Conectado', 'Desconectado'… for a channel's status (the raw value when it has no text), told apart by
 * the status reason the api keeps (api/channels/channelStatus.ts) so a label never promises what does not
 * happen: SPEC's 'Desconectado, tentando reconectar' only for a QR line that really is reconnecting with
 * backoff; a logged-out QR line asks for the QR again, a stopped one for a restart, a revoked Cloud token
 * for a new token, and a Telegram bot or a Meta page waits for someone to connect it again.
 */
export const channelStatusLabel = (status: string, channelId?: string, statusReason?: string | null): string => {
  const s = texts.channels.status;
  if (status === 'processing_channel' && statusReason === 'reconnecting') return s.disconnected;
  if (status === 'disconnected') {
    if (statusReason === 'qr_logged_out') return s.disconnectedQrLogin;
    if (statusReason === 'qr_stopped') return s.disconnectedQrStopped;
    if (statusReason === 'token_revoked' && channelId === 'whatsapp') return s.disconnectedCloudToken;
    if (statusReason === 'token_revoked' || (channelId && TOKEN_CHANNELS.includes(channelId))) return s.disconnectedToken;
  }
  return (s as Record<string, string>)[status] ?? status;
};

/**
 * Creating a channel from its add page: POSTs the form to `path`, refreshes the channel list, toasts `savedText`
 * and keeps the answer (with what is shown only this once) in `saved`; the server's field errors go on `fields`.
 */
export function useChannelCreate<Row>(path: string, savedText: string) {
  const notify = useNotify();
  const queryClient = useQueryClient();
  const [saved, setSaved] = useState<Row>();
  const create = async <F extends FieldValues>(values: F, fields: readonly string[], setError: UseFormSetError<F>) => {
    try {
      const row = await api<Row>(path, { method: 'POST', body: values });
      void queryClient.invalidateQueries({ queryKey: channelsKey, exact: true });
      notify(savedText, { type: 'success' });
      setSaved(row);
    } catch (err) {
      applyServerErrors(err, fields, setError);
      for (const message of failureToasts(err)) notify(message, { type: 'error' });
    }
  };
  return { saved, create };
}

/**
 * Deleting a channel after the Confirm dialog: `remove` calls `del`, drops the channel's cached query
 * (`queryKey`), refreshes the list, toasts `deletedText` and goes back to /settings/channels.
 */
export function useChannelDelete({ queryKey, del, deletedText }: { queryKey: readonly unknown[]; del: () => Promise<unknown>; deletedText: string }) {
  const notify = useNotify();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [confirming, setConfirming] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const remove = async () => {
    setDeleting(true);
    try {
      await del();
      queryClient.removeQueries({ queryKey });
      await queryClient.invalidateQueries({ queryKey: channelsKey, exact: true });
      notify(deletedText, { type: 'success' });
      void navigate('/settings/channels');
    } catch (err) {
      for (const message of errorDescriptions(err)) notify(message, { type: 'error' });
    } finally {
      setDeleting(false);
      setConfirming(false);
    }
  };
  return { confirming, deleting, ask: () => setConfirming(true), close: () => setConfirming(false), remove };
}

export type ChannelDeletion = ReturnType<typeof useChannelDelete>;
