import { createElement, useState } from 'react';
import type { FieldValues, UseFormSetError } from 'react-hook-form';
import { useNotify } from 'react-admin';
import { useQueryClient } from '@tanstack/react-query';
import { applyServerErrors, failureToasts } from '../../forms/serverErrors';
import { api } from '../../providers/httpClient';
import { texts } from '../../i18n/ptBR';
import { channelsKey } from './channelKeys';
import { errorLink, PlanLimitToast } from '../../common/PlanLimitToast';
import { useRecordDelete, type RecordDeletion } from '../common/useRecordDelete';

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
 * Sends a channel form (`method` to `path`), refreshes the channel list, toasts `savedText` and hands the
 * answer to `onSaved`; the server's field errors go on `fields`, the rest is toasted.
 */
function useChannelSave<Row>(method: 'POST' | 'PUT', path: string, savedText: string, onSaved: (row: Row) => void) {
  const notify = useNotify();
  const queryClient = useQueryClient();
  return async <F extends FieldValues>(values: F, fields: readonly string[], setError: UseFormSetError<F>) => {
    try {
      const row = await api<Row>(path, { method, body: values });
      onSaved(row);
      void queryClient.invalidateQueries({ queryKey: channelsKey, exact: true });
      notify(savedText, { type: 'success' });
    } catch (err) {
      applyServerErrors(err, fields, setError);
      // A plan limit (one WhatsApp line too many) offers 'Assinatura' beside the text naming the limit.
      const link = errorLink(err);
      for (const message of failureToasts(err)) notify(link ? createElement(PlanLimitToast, { message, link }) : message, { type: 'error' });
    }
  };
}

/**
 * Creating a channel from its add page: POSTs the form to `path`, refreshes the channel list, toasts `savedText`
 * and keeps the answer (with what is shown only this once) in `saved`; the server's field errors go on `fields`.
 */
export function useChannelCreate<Row>(path: string, savedText: string) {
  const [saved, setSaved] = useState<Row>();
  return { saved, create: useChannelSave<Row>('POST', path, savedText, setSaved) };
}

/** Saving a channel's settings page: PUTs the form to `path` and keeps the answer as the page's channel (`queryKey`). */
export function useChannelUpdate<Row>(path: string, queryKey: readonly unknown[], savedText: string) {
  const queryClient = useQueryClient();
  return useChannelSave<Row>('PUT', path, savedText, (row) => queryClient.setQueryData(queryKey, row));
}

/** Deleting a channel from its page (useRecordDelete): back to /settings/channels, whose list is refreshed. */
export function useChannelDelete({ queryKey, del, deletedText }: { queryKey: readonly unknown[]; del: () => Promise<unknown>; deletedText: string }) {
  return useRecordDelete({ queryKey, listKey: channelsKey, del, deletedText, backTo: '/settings/channels' });
}

export type ChannelDeletion = RecordDeletion;
