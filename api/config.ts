import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import webpush from 'web-push';
import { OPERATOR_PLACEHOLDERS, type OperatorIdentity } from './http/operatorIdentity';
import { parseAllowedNetworks } from './http/guardedFetch';

/** Every setting the processes read, each from one environment variable with a safe default. */
export interface Config {
  port: number;
  /** HOST: the interface the api listens on; loopback unless a deployment opens it (docker-compose: 0.0.0.0). */
  host: string;
  publicUrl: string;
  dataDir: string;
  databaseUrl: string;
  temporalAddress: string;
  temporalNamespace: string;
  temporalTaskQueue: string;
  /** Temporal Web UI base (TEMPORAL_UI_URL): admins' links to bot-session workflows. */
  temporalUiUrl: string;
  /** Unset: the api embeds aedes and server processes publish to it at ws://127.0.0.1:PORT/mqtt. */
  mqttUrl: string | undefined;
  /**
   * MQTT_HOOK_SECRET: what an external broker sends as `Authorization: Bearer …` to /api/mqtt/auth and
   * /api/mqtt/acl. Unset (or no MQTT_URL): those hooks answer 404.
   */
  mqttHookSecret: string | undefined;
  /**
   * MQTT_ADMIN_URL: RabbitMQ's management API with a user's credentials (http://user:pass@host:15672),
   * for presence and token cuts with the external broker (docs/scaling.md). Unset: nobody counts as online
   * through an external broker, and a token cut ends its sessions only when their token expires.
   */
  mqttAdminUrl: string | undefined;
  /**
   * REDIS_URL: the store the api nodes of a cluster share (rate limits, spent proof-of-work solutions;
   * docs/scaling.md). Unset: kept in the process (one api node, npm start).
   */
  redisUrl: string | undefined;
  /**
   * CLUSTER_JOBS: the periodic sweeps run once per interval across every process (a lease row in
   * PostgreSQL) instead of in each process. On by default when REDIS_URL is set (a cluster); `0` or `1`
   * forces it.
   */
  clusterJobs: boolean;
  smtpUrl: string | undefined;
  smtpPort: number;
  inboundEmailDomain: string;
  jwtSecret: string;
  /** Enforced trial length in days (SPEC keeps two readings: 30 on the landing page, 7 in the terms). */
  trialDays: number;
  /** Number of reverse proxies in front of the api whose X-Forwarded-For may be trusted (0: none). */
  trustProxy: number;
  logLevel: string;
  /** Internal credential the server processes use to publish on the broker. */
  mqttInternalPassword: string;
  /** PRESENCE_GRACE_MS: how long an agent may be offline before their unanswered round-robin calls are handed back (docs/assignment.md); 0 = at once. */
  presenceGraceMs: number;
  /** META_GRAPH_URL: the Graph API base (WhatsApp Cloud lines); tests and staging point it elsewhere. */
  metaGraphUrl: string;
  /** META_APP_ID: the Meta app that connects Facebook pages and Instagram accounts (docs/channels/meta.md); unset: those channels explain what to set. */
  metaAppId: string | undefined;
  /** META_APP_SECRET: signs Meta's webhooks (X-Hub-Signature-256) and the OAuth code exchange. */
  metaAppSecret: string | undefined;
  /** META_VERIFY_TOKEN: what Meta's webhook verification handshake must send for GET /api/hooks/meta. */
  metaVerifyToken: string | undefined;
  /** META_OAUTH_URL: Meta's login dialog (default Facebook's); tests point it at a fake. */
  metaOauthUrl: string;
  /** META_HUMAN_AGENT_TAG: the app has the Human Agent permission, so replies 24 h–7 days after the customer's last message go with the HUMAN_AGENT tag. */
  metaHumanAgentTag: boolean;
  /** TELEGRAM_API_URL: the Telegram Bot API base (docs/channels/telegram.md); tests and staging point it elsewhere. */
  telegramApiUrl: string;
  /**
   * CHANNEL_SECRETS_KEY: the key that encrypts the secrets channels store (access tokens, app secrets).
   * Unset: generated once and kept in DATA_DIR/channel-secrets-key. Losing it means saving the lines again.
   */
  channelSecretsKey: string;
  /** CAMPAIGN_CLOUD_RATE_PER_SECOND: campaign sends per second on each WhatsApp Cloud API line (Meta's default throughput, 80). */
  campaignCloudRatePerSecond: number;
  /** CAMPAIGN_QR_RATE_PER_SECOND: campaign sends per second on each WhatsApp QR line (1: a phone is not a bulk sender). */
  campaignQrRatePerSecond: number;
  /**
   * VAPID_PUBLIC_KEY / VAPID_PRIVATE_KEY: the application server key pair of Web Push (RFC 8292, docs/pwa.md),
   * base64url P-256. Unset: generated once and kept in DATA_DIR/vapid-keys.json. A new pair invalidates
   * every device's subscription (browsers subscribe again when the agent turns notifications back on).
   */
  vapidPublicKey: string;
  vapidPrivateKey: string;
  /** VAPID_SUBJECT: how a push service reaches the operator (mailto: or https:); default mailto:notificacoes@<PUBLIC_URL host>. */
  vapidSubject: string;
  /** ASAAS_API_URL: the Asaas v3 API base (docs/billing-providers.md); tests and the sandbox point it elsewhere. */
  asaasApiUrl: string;
  /** ASAAS_API_KEY: the Asaas account's API key, sent as `access_token`. Unset: billing runs in the embedded test mode ('Modo de teste'). */
  asaasApiKey: string | undefined;
  /** ASAAS_WEBHOOK_TOKEN: what Asaas sends as `asaas-access-token` to POST /api/hooks/asaas. Unset: that hook refuses every call (401). */
  asaasWebhookToken: string | undefined;
  /** SUPPORT_PHONES: the two phones of the 'Plano personalizado' contact dialog, comma-separated (SPEC §1). */
  supportPhones: [string, string];
  /** SUPPORT_EMAIL: the e-mail of that dialog; default comercial@<PUBLIC_URL host>. */
  supportEmail: string;
  /**
   * OPERATOR_*: who operates this Balcão, as /terms, /privacy and /ganhomais name it (docs/public-site-content.md
   * "Company identity"). Unset, each is a bracketed placeholder the pages show as it is, and the api says so at start.
   */
  operator: OperatorIdentity;
}

/** OPERATOR_* as given, each unset one at its placeholder. */
function operatorIdentity(env: NodeJS.ProcessEnv): OperatorIdentity {
  const given = (name: string, placeholder: string) => env[name]?.trim() || placeholder;
  const p = OPERATOR_PLACEHOLDERS;
  return {
    legalLine: given('OPERATOR_LEGAL_NAME', p.legalLine),
    address: given('OPERATOR_ADDRESS', p.address),
    forum: given('OPERATOR_FORUM', p.forum),
    contactEmail: given('OPERATOR_CONTACT_EMAIL', p.contactEmail),
    dpoName: given('OPERATOR_DPO_NAME', p.dpoName),
    dpoEmail: given('OPERATOR_DPO_EMAIL', p.dpoEmail),
    hostingProvider: given('OPERATOR_HOSTING', p.hostingProvider),
  };
}

/** Two phones for the contact dialog; one given is shown twice, none gives the placeholders of .env.example. */
function supportPhones(value: string | undefined): [string, string] {
  const phones = (value ?? '').split(',').map((p) => p.trim()).filter(Boolean);
  if (!phones.length) return ['+55 (11) 4000-0000', '+55 (11) 91234-5678'];
  return [phones[0]!, phones[1] ?? phones[0]!];
}

function int(value: string | undefined, fallback: number): number {
  if (value === undefined || value === '') return fallback;
  const n = Number.parseInt(value, 10);
  if (!Number.isFinite(n)) throw new Error(`Valor numérico inválido: ${value}`);
  return n;
}

/** A send rate (messages per second): a positive number, fractions allowed (0.2 = one every 5 s). */
function rate(name: string, value: string | undefined, fallback: number, min: number, max: number): number {
  if (value === undefined || value === '') return fallback;
  const n = Number(value);
  if (!Number.isFinite(n) || n < min || n > max) throw new Error(`${name} deve ser um número entre ${min} e ${max}: ${value}`);
  return n;
}

/** A secret generated once and kept under DATA_DIR, so restarts keep tokens valid. */
function persistedSecret(dataDir: string, name: string): string {
  const file = path.join(dataDir, name);
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  mkdirSync(dataDir, { recursive: true });
  const secret = randomBytes(48).toString('base64url');
  try {
    writeFileSync(file, secret, { mode: 0o600, flag: 'wx' });
    return secret;
  } catch (err) {
    // The api and the worker start together: if the other wrote it first, theirs is the key.
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return readFileSync(file, 'utf8').trim();
    throw err;
  }
}

/** The VAPID key pair generated once and kept under DATA_DIR, like the other secrets. */
function persistedVapidKeys(dataDir: string): { publicKey: string; privateKey: string } {
  const file = path.join(dataDir, 'vapid-keys.json');
  const read = () => JSON.parse(readFileSync(file, 'utf8')) as { publicKey: string; privateKey: string };
  if (existsSync(file)) return read();
  mkdirSync(dataDir, { recursive: true });
  const keys = webpush.generateVAPIDKeys();
  try {
    writeFileSync(file, JSON.stringify(keys), { mode: 0o600, flag: 'wx' });
    return keys;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return read();
    throw err;
  }
}

function vapidKeys(env: NodeJS.ProcessEnv, dataDir: string): { publicKey: string; privateKey: string } {
  if (env.VAPID_PUBLIC_KEY && env.VAPID_PRIVATE_KEY) return { publicKey: env.VAPID_PUBLIC_KEY, privateKey: env.VAPID_PRIVATE_KEY };
  if (env.VAPID_PUBLIC_KEY || env.VAPID_PRIVATE_KEY) throw new Error('VAPID_PUBLIC_KEY e VAPID_PRIVATE_KEY devem ser definidas juntas.');
  return persistedVapidKeys(dataDir);
}

function defaultVapidSubject(publicUrl: string): string {
  try {
    return `mailto:notificacoes@${new URL(publicUrl).hostname}`;
  } catch {
    return 'mailto:notificacoes@localhost';
  }
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  // A wrong entry stops the start with its name instead of leaving the guard in an unknown state.
  parseAllowedNetworks(env.OUTBOUND_ALLOWED_NETWORKS);
  const port = int(env.PORT, 3000);
  const dataDir = path.resolve(env.DATA_DIR ?? 'data');
  const publicUrl = (env.PUBLIC_URL ?? `http://localhost:${port}`).replace(/\/$/, '');
  const vapid = vapidKeys(env, dataDir);
  return {
    port,
    host: env.HOST || '127.0.0.1',
    publicUrl,
    dataDir,
    databaseUrl: env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/balcao',
    temporalAddress: env.TEMPORAL_ADDRESS ?? '127.0.0.1:7233',
    temporalNamespace: env.TEMPORAL_NAMESPACE ?? 'default',
    temporalTaskQueue: env.TEMPORAL_TASK_QUEUE ?? 'balcao',
    temporalUiUrl: (env.TEMPORAL_UI_URL || `http://localhost:${env.TEMPORAL_UI_PORT || 8233}`).replace(/\/$/, ''),
    mqttUrl: env.MQTT_URL || undefined,
    mqttHookSecret: env.MQTT_HOOK_SECRET || undefined,
    mqttAdminUrl: env.MQTT_ADMIN_URL || undefined,
    redisUrl: env.REDIS_URL || undefined,
    clusterJobs: env.CLUSTER_JOBS ? env.CLUSTER_JOBS === '1' || env.CLUSTER_JOBS === 'true' : Boolean(env.REDIS_URL),
    smtpUrl: env.SMTP_URL || undefined,
    smtpPort: int(env.SMTP_PORT, 2525),
    inboundEmailDomain: env.INBOUND_EMAIL_DOMAIN ?? 'inbound.localhost',
    jwtSecret: env.JWT_SECRET || persistedSecret(dataDir, 'jwt-secret'),
    trialDays: int(env.TRIAL_DAYS, 7),
    trustProxy: int(env.TRUST_PROXY, 0),
    logLevel: env.LOG_LEVEL ?? 'info',
    mqttInternalPassword: env.MQTT_INTERNAL_PASSWORD || persistedSecret(dataDir, 'mqtt-internal-secret'),
    presenceGraceMs: int(env.PRESENCE_GRACE_MS, 60_000),
    metaGraphUrl: (env.META_GRAPH_URL || 'https://graph.facebook.com/v25.0').replace(/\/$/, ''),
    metaAppId: env.META_APP_ID || undefined,
    metaAppSecret: env.META_APP_SECRET || undefined,
    metaVerifyToken: env.META_VERIFY_TOKEN || undefined,
    metaOauthUrl: env.META_OAUTH_URL || 'https://www.facebook.com/v25.0/dialog/oauth',
    metaHumanAgentTag: env.META_HUMAN_AGENT_TAG === 'true' || env.META_HUMAN_AGENT_TAG === '1',
    telegramApiUrl: (env.TELEGRAM_API_URL || 'https://api.telegram.org').replace(/\/$/, ''),
    channelSecretsKey: env.CHANNEL_SECRETS_KEY || persistedSecret(dataDir, 'channel-secrets-key'),
    campaignCloudRatePerSecond: rate('CAMPAIGN_CLOUD_RATE_PER_SECOND', env.CAMPAIGN_CLOUD_RATE_PER_SECOND, 80, 0.05, 1000),
    campaignQrRatePerSecond: rate('CAMPAIGN_QR_RATE_PER_SECOND', env.CAMPAIGN_QR_RATE_PER_SECOND, 1, 0.05, 1000),
    vapidPublicKey: vapid.publicKey,
    vapidPrivateKey: vapid.privateKey,
    vapidSubject: env.VAPID_SUBJECT || defaultVapidSubject(publicUrl),
    asaasApiUrl: (env.ASAAS_API_URL || 'https://api.asaas.com/v3').replace(/\/$/, ''),
    asaasApiKey: env.ASAAS_API_KEY || undefined,
    asaasWebhookToken: env.ASAAS_WEBHOOK_TOKEN || undefined,
    supportPhones: supportPhones(env.SUPPORT_PHONES),
    supportEmail: env.SUPPORT_EMAIL || `comercial@${new URL(publicUrl).hostname}`,
    operator: operatorIdentity(env),
  };
}
