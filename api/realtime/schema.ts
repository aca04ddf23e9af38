import { z } from 'zod';

/**
 * Bodies of the external broker's HTTP hooks, in the shape of the request templates documented in
 * docs/realtime.md (EMQX 5 HTTP authentication / authorization). EMQX renders every placeholder as a
 * string; extra fields are ignored.
 */
export const MqttAuthHookSchema = z.object({
  clientid: z.string().max(256),
  username: z.string().max(256).optional(),
  password: z.string().max(8192).optional(),
});
export type MqttAuthHookReq = z.infer<typeof MqttAuthHookSchema>;

export const MqttAclHookSchema = z.object({
  clientid: z.string().max(256).optional(),
  username: z.string().max(256),
  topic: z.string().min(1).max(1024),
  action: z.enum(['publish', 'subscribe']),
  /** `${client_attrs.role}` — set by our own auth hook, never by the client. */
  role: z.string().max(32).optional(),
  /** `${client_attrs.workspace_id}` — set by our own auth hook, never by the client. */
  workspace_id: z.string().max(16).optional(),
});
export type MqttAclHookReq = z.infer<typeof MqttAclHookSchema>;
