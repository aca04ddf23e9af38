import { randomUUID } from 'node:crypto';
import { SignJWT } from 'jose';
import { pluginUrl } from './endpoint';

/** How long a plugin token is valid: minutes, so a leaked one is soon worthless (docs/plugins.md). */
export const PLUGIN_TOKEN_TTL_S = 300;
export const PLUGIN_TOKEN_ISSUER = 'balcao';

export interface PluginTokenClaims {
  workspaceId: number;
  operatorId: number;
  conversationId: number | null;
  customerId: number | null;
}

/**
 * The short-lived token the inbox hands a plugin frame instead of its auth secret (issue 25 item 7): an
 * HS256 JWT signed with the plugin's auth secret, so the plugin's server verifies it with the secret it
 * was shown once, while the secret itself never travels to the browser or in a URL. Its audience is the
 * plugin endpoint's origin (the app's own for a built-in page), so a token made for one plugin is refused by another that shares a secret.
 */
export async function signPluginToken(
  plugin: { id: number; endpoint: string; authSecret: string },
  claims: PluginTokenClaims,
  /** The app's own origin (PUBLIC_URL): a built-in plugin page's audience. */
  appOrigin: string,
  now = Date.now(),
): Promise<{ token: string; expiresAt: string }> {
  const iat = Math.floor(now / 1000);
  const exp = iat + PLUGIN_TOKEN_TTL_S;
  const token = await new SignJWT({
    workspace_id: claims.workspaceId,
    operator_id: claims.operatorId,
    plugin_id: plugin.id,
    conversation_id: claims.conversationId,
    customer_id: claims.customerId,
  })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setIssuer(PLUGIN_TOKEN_ISSUER)
    .setAudience(pluginUrl(plugin.endpoint, appOrigin).origin)
    .setSubject(String(claims.operatorId))
    .setIssuedAt(iat)
    .setExpirationTime(exp)
    .setJti(randomUUID())
    .sign(new TextEncoder().encode(plugin.authSecret));
  return { token, expiresAt: new Date(exp * 1000).toISOString() };
}
