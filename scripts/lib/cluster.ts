/**
 * The scale-out topology on one machine (docs/scaling.md): a RabbitMQ node of our own with its MQTT,
 * Web MQTT, management and HTTP auth plugins, haproxy in front, N api nodes and M workers over one
 * PostgreSQL, one Temporal and one Redis. `npm run cluster` (scripts/cluster.ts) and test/cluster/ both
 * start it from here. Nothing on the machine is reconfigured: the RabbitMQ node and haproxy run from files
 * written under `dir`, on their own ports.
 */
import type { SpawnOptions } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { portAnswers, startProcess, stopAll, waitFor, type Managed } from './processes';
import { processAlive, stopPid } from '../../api/system/processes';

export interface ClusterPorts {
  /** The load balancer: the one address browsers, widgets and webhooks use. */
  lb: number;
  apis: number[];
  /** Each api node's inbound SMTP (0: off). */
  smtp: number[];
  rabbit: { amqp: number; mqtt: number; ws: number; management: number; dist: number };
}

export interface ClusterOptions {
  root: string;
  /** Files of this cluster: rabbitmq/ (node data, config, logs), haproxy.cfg, DATA_DIR of the nodes. */
  dir: string;
  databaseUrl: string;
  temporalAddress: string;
  redisUrl: string;
  ports: ClusterPorts;
  workers: number;
  /** RabbitMQ node name; one per cluster on a machine. */
  rabbitNode?: string;
  /** More environment for api nodes and workers (JWT_SECRET, TEMPORAL_TASK_QUEUE, LOG_LEVEL…). */
  env?: NodeJS.ProcessEnv;
  /** Where the processes' output goes: each line prefixed by its name (default), or nowhere. */
  quiet?: boolean;
  /**
   * The workers' entry, relative to `root` (default `activities/worker.ts`); the cluster tests run
   * test/cluster/support/qrWorker.ts, the same worker with a loopback stand-in for WhatsApp's QR sockets.
   */
  workerScript?: string;
}

export interface Cluster {
  url: string;
  apiUrls: string[];
  /** RabbitMQ's MQTT (TCP) address, as server processes reach it (MQTT_URL). */
  mqttUrl: string;
  /** The broker's address for browsers: MQTT over WebSocket through the load balancer. */
  mqttWsUrl: string;
  hookSecret: string;
  internalPassword: string;
  processes: Map<string, Managed>;
  /** `api-1`, `worker-2`…: started again with the same settings (after a kill). */
  start(name: string): Promise<Managed>;
  /** kill -9, and waits for the exit. */
  kill(name: string): Promise<void>;
  /** SIGTERM (the process drains), SIGKILL after 15 s; waits for the exit. */
  stopProcess(name: string): Promise<void>;
  stop(): Promise<void>;
}

export const RABBIT_PLUGINS = ['rabbitmq_mqtt', 'rabbitmq_web_mqtt', 'rabbitmq_management', 'rabbitmq_auth_backend_http', 'rabbitmq_auth_backend_cache'];
const RABBIT_BIN = process.env.RABBITMQ_BIN_DIR ?? '/usr/lib/rabbitmq/bin';
/** How long an offline persistent MQTT session is kept (the embedded broker's SESSION_EXPIRY_MS). */
const SESSION_QUEUE_EXPIRY_MS = 120_000;

export const RABBIT_ADVANCED = '[{rabbitmq_mqtt, [{ignore_colons_in_username, true}]}].\n';

/** rabbitmq.conf of our node: the hooks answered by the api nodes through the load balancer. */
export function rabbitConfig(ports: ClusterPorts['rabbit'], hookBase: string, secret: string): string {
  const hook = (p: string) => `${hookBase}/api/mqtt/${p}?secret=${encodeURIComponent(secret)}`;
  return [
    `listeners.tcp.default = 127.0.0.1:${ports.amqp}`,
    `mqtt.listeners.tcp.default = 127.0.0.1:${ports.mqtt}`,
    'mqtt.allow_anonymous = false',
    `web_mqtt.tcp.ip = 127.0.0.1`,
    `web_mqtt.tcp.port = ${ports.ws}`,
    // The path browsers already use with the embedded broker, so the load balancer passes it through unchanged.
    'web_mqtt.ws_path = /mqtt',
    `management.tcp.ip = 127.0.0.1`,
    `management.tcp.port = ${ports.management}`,
    // Presence reads live sessions from the management API: fresh every second instead of every 5.
    'collect_statistics_interval = 1000',
    // The node's own users first (guest for the management API; `internal`, the server processes, which
    // the api adds: their publishes need no hook), then the api for every browser, each answer kept for
    // 5 s (the token cut bound, MEMBERSHIP_MAX_AGE_MS) so a burst of SUBSCRIBEs is not a burst of hooks.
    'auth_backends.1 = internal',
    'auth_backends.2 = cache',
    'auth_cache.cached_backend = http',
    'auth_cache.cache_ttl = 5000',
    'auth_http.http_method = post',
    `auth_http.user_path = ${hook('auth')}`,
    `auth_http.vhost_path = ${hook('acl')}`,
    `auth_http.resource_path = ${hook('acl')}`,
    `auth_http.topic_path = ${hook('acl')}`,
    '',
  ].join('\n');
}

/** haproxy.cfg: HTTP round robin over the api nodes, /mqtt (WebSocket) to the broker. */
export function haproxyConfig(ports: ClusterPorts): string {
  return [
    'global',
    '  maxconn 4000',
    'defaults',
    '  mode http',
    '  timeout connect 2s',
    '  timeout client 60s',
    '  timeout server 60s',
    // A WebSocket, once upgraded, is a tunnel: MQTT keepalives are a minute apart.
    '  timeout tunnel 1h',
    '  option redispatch',
    // Only a connection refused is retried on the other node: that request never reached a process, so
    // retrying it cannot apply it twice. A request a killed node was serving fails to its client, which
    // retries it with the same idempotency key (docs/scaling.md).
    '  retries 2',
    '  retry-on conn-failure',
    'frontend balcao',
    `  bind 127.0.0.1:${ports.lb}`,
    '  option forwardfor',
    '  acl mqtt path /mqtt',
    '  use_backend broker if mqtt',
    '  default_backend api',
    'backend api',
    '  balance roundrobin',
    // Liveness, not readiness: a node whose Temporal or worker is away still serves most of the API.
    '  option httpchk GET /api/health',
    '  http-check expect rstatus ^(200|503)$',
    '  default-server inter 1s fall 2 rise 1',
    ...ports.apis.map((p, i) => `  server api${i + 1} 127.0.0.1:${p} check`),
    'backend broker',
    `  server rabbit 127.0.0.1:${ports.rabbit.ws} check inter 2s`,
    '',
  ].join('\n');
}

async function rabbitApi(ports: ClusterPorts['rabbit'], method: string, p: string, body?: unknown): Promise<Response> {
  return fetch(`http://127.0.0.1:${ports.management}${p}`, {
    method,
    headers: { authorization: `Basic ${Buffer.from('guest:guest').toString('base64')}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(5000),
  });
}

export async function startCluster(options: ClusterOptions): Promise<Cluster> {
  const { root, dir, ports } = options;
  mkdirSync(dir, { recursive: true });
  const dataDir = path.join(dir, 'data');
  mkdirSync(dataDir, { recursive: true });
  const hookSecret = options.env?.MQTT_HOOK_SECRET ?? randomBytes(24).toString('base64url');
  const internalPassword = options.env?.MQTT_INTERNAL_PASSWORD ?? randomBytes(24).toString('base64url');
  const lbUrl = `http://127.0.0.1:${ports.lb}`;
  const processes = new Map<string, Managed>();
  const order: string[] = [];
  const out: SpawnOptions = options.quiet ? { stdio: 'ignore' } : {};

  const launch = (name: string, command: string, args: string[], env: NodeJS.ProcessEnv): Managed => {
    const managed = startProcess(name, command, args, { env: { ...process.env, ...env }, detached: true, cwd: root, ...out });
    processes.set(name, managed);
    if (!order.includes(name)) order.push(name);
    return managed;
  };

  // The broker: a RabbitMQ node of this cluster, its plugins listed in its own file (no machine step).
  const rabbitDir = path.join(dir, 'rabbitmq');
  mkdirSync(rabbitDir, { recursive: true });
  writeFileSync(path.join(rabbitDir, 'enabled_plugins'), `[${RABBIT_PLUGINS.join(',')}].\n`);
  writeFileSync(path.join(rabbitDir, 'rabbitmq.conf'), rabbitConfig(ports.rabbit, lbUrl, hookSecret));
  // A colon in an MQTT username names a vhost to RabbitMQ ("vhost:user"); widget visitors log in as
  // `visitor:{id}`. The setting is not in rabbitmq.conf's schema in 3.10, hence the advanced file.
  writeFileSync(path.join(rabbitDir, 'advanced.config'), RABBIT_ADVANCED);
  if (!existsSync(path.join(RABBIT_BIN, 'rabbitmq-server'))) throw new Error(`rabbitmq-server não encontrado em ${RABBIT_BIN}: instale o pacote rabbitmq-server (apt-get install rabbitmq-server).`);
  const node = options.rabbitNode ?? 'balcao@localhost';
  const rabbitEnv = {
    RABBITMQ_NODENAME: node,
    RABBITMQ_NODE_PORT: String(ports.rabbit.amqp),
    RABBITMQ_DIST_PORT: String(ports.rabbit.dist),
    RABBITMQ_MNESIA_BASE: path.join(rabbitDir, 'mnesia'),
    RABBITMQ_LOG_BASE: path.join(rabbitDir, 'log'),
    RABBITMQ_CONFIG_FILE: path.join(rabbitDir, 'rabbitmq.conf'),
    RABBITMQ_ADVANCED_CONFIG_FILE: path.join(rabbitDir, 'advanced.config'),
    RABBITMQ_ENABLED_PLUGINS_FILE: path.join(rabbitDir, 'enabled_plugins'),
    RABBITMQ_PID_FILE: path.join(rabbitDir, 'pid'),
    RABBITMQ_LOGS: path.join(rabbitDir, 'log', 'rabbit.log'),
  };
  if (await portAnswers(ports.rabbit.mqtt)) throw new Error(`a porta ${ports.rabbit.mqtt} (MQTT do RabbitMQ do cluster) já está em uso.`);
  const rabbit = launch('rabbitmq', path.join(RABBIT_BIN, 'rabbitmq-server'), [], rabbitEnv);

  const haproxyCfg = path.join(dir, 'haproxy.cfg');
  writeFileSync(haproxyCfg, haproxyConfig(ports));
  const haproxy = launch('haproxy', process.env.HAPROXY_BIN ?? 'haproxy', ['-f', haproxyCfg, '-db'], {});

  const mqttUrl = `mqtt://127.0.0.1:${ports.rabbit.mqtt}`;
  const common: NodeJS.ProcessEnv = {
    DATA_DIR: dataDir,
    DATABASE_URL: options.databaseUrl,
    TEMPORAL_ADDRESS: options.temporalAddress,
    REDIS_URL: options.redisUrl,
    MQTT_URL: mqttUrl,
    MQTT_INTERNAL_PASSWORD: internalPassword,
    MQTT_HOOK_SECRET: hookSecret,
    MQTT_ADMIN_URL: `http://guest:guest@127.0.0.1:${ports.rabbit.management}`,
    PUBLIC_URL: lbUrl,
    // haproxy adds X-Forwarded-For: one proxy in front.
    TRUST_PROXY: '1',
    MIGRATE_ON_START: '0',
    ...options.env,
  };
  const node_ = process.execPath;
  const specs = new Map<string, { args: string[]; env: NodeJS.ProcessEnv }>();
  ports.apis.forEach((port, i) => specs.set(`api-${i + 1}`, { args: ['--import', 'tsx', 'api/main.ts'], env: { ...common, PORT: String(port), SMTP_PORT: String(ports.smtp[i] ?? 0) } }));
  for (let i = 0; i < options.workers; i++) specs.set(`worker-${i + 1}`, { args: ['--import', 'tsx', options.workerScript ?? 'activities/worker.ts'], env: { ...common, PORT: String(ports.apis[0]) } });

  const start = async (name: string): Promise<Managed> => {
    const spec = specs.get(name);
    if (!spec) throw new Error(`processo desconhecido: ${name}`);
    const managed = launch(name, node_, spec.args, spec.env);
    if (name.startsWith('api-')) await waitFor(name, () => portAnswers(Number(spec.env.PORT)), 90_000, () => managed.child.exitCode !== null);
    return managed;
  };

  const cluster: Cluster = {
    url: lbUrl,
    apiUrls: ports.apis.map((p) => `http://127.0.0.1:${p}`),
    mqttUrl,
    mqttWsUrl: `ws://127.0.0.1:${ports.lb}/mqtt`,
    hookSecret,
    internalPassword,
    processes,
    start,
    async kill(name) {
      const managed = processes.get(name);
      if (!managed || managed.child.exitCode !== null || managed.child.signalCode !== null) return;
      managed.child.kill('SIGKILL');
      await managed.exited;
    },
    async stopProcess(name) {
      const managed = processes.get(name);
      if (managed) await stopAll([managed], 15_000);
    },
    async stop() {
      // Workers first, then the api nodes and the load balancer; the broker last.
      const rank = (n: string) => (n.startsWith('worker') ? 0 : n.startsWith('api') ? 1 : 2);
      await stopAll([...order].filter((n) => n !== 'rabbitmq').sort((a, b) => rank(a) - rank(b)).map((n) => processes.get(n)!).filter(Boolean), 15_000);
      // rabbitmq-server is a script that starts the Erlang VM as its child: the VM (its pid file) is what stops.
      const pidFile = rabbitEnv.RABBITMQ_PID_FILE;
      const beam = existsSync(pidFile) ? Number(readFileSync(pidFile, 'utf8').trim()) : 0;
      if (beam > 0 && processAlive(beam)) await stopPid(beam, 'SIGTERM', 'SIGKILL', 20_000);
      await stopAll([rabbit], 5000);
    },
  };

  try {
    // RabbitMQ takes from seconds to a minute to boot (a busy machine): the api nodes start meanwhile.
    await waitFor('haproxy', () => portAnswers(ports.lb), 15_000, () => haproxy.child.exitCode !== null);
    await Promise.all([...specs.keys()].filter((n) => n.startsWith('api-')).map((n) => start(n)));
    await waitFor('RabbitMQ', async () => (await portAnswers(ports.rabbit.mqtt)) && (await portAnswers(ports.rabbit.management)), 180_000, () => rabbit.child.exitCode !== null);
    // Kept (clean: false) sessions live as queues; without a client they go after the embedded broker's expiry.
    const policy = await rabbitApi(ports.rabbit, 'PUT', '/api/policies/%2F/balcao-mqtt-sessions', {
      pattern: '^mqtt-subscription-',
      definition: { expires: SESSION_QUEUE_EXPIRY_MS },
      'apply-to': 'queues',
    });
    if (!policy.ok) throw new Error(`RabbitMQ: política das sessões MQTT recusada (${policy.status})`);
    for (const n of specs.keys()) if (n.startsWith('worker-')) await start(n);
  } catch (err) {
    await cluster.stop();
    throw err;
  }
  return cluster;
}
