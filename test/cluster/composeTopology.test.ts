import { expect } from 'chai';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { load } from 'js-yaml';
import { RABBIT_ADVANCED, RABBIT_PLUGINS, rabbitConfig } from '../../scripts/lib/cluster';

/**
 * docker-compose.yml's cluster (issue 32, docs/scaling.md) cannot be started where no Docker engine runs
 * (this machine and CI have only the client). What it shares with the topology the other cluster tests
 * start (scripts/lib/cluster.ts) is held here instead, so the two cannot drift apart: the same processes and
 * settings, the same RabbitMQ plugins and hooks, a load balancer haproxy itself accepts.
 */
interface Service {
  command?: string;
  environment?: Record<string, string>;
  volumes?: string[];
  ports?: string[];
  depends_on?: unknown;
}

const compose = load(readFileSync('docker-compose.yml', 'utf8')) as { services: Record<string, Service> };
const services = compose.services;
const env = (name: string) => services[name].environment ?? {};

/** `key = value` lines of a rabbitmq.conf, comments and blank lines left out. */
function settings(conf: string): Map<string, string> {
  const lines = conf.split('\n').map((l) => l.trim()).filter((l) => l && !l.startsWith('#'));
  return new Map(lines.map((l) => [l.slice(0, l.indexOf('=')).trim(), l.slice(l.indexOf('=') + 1).trim()]));
}

/** Where a node listens: set by the ports of the one-machine topology, left to RabbitMQ's defaults in containers. */
const LISTENING = /^(listeners\.|mqtt\.listeners\.|web_mqtt\.tcp\.|management\.tcp\.)/;

describe("docker-compose.yml's cluster is the topology the cluster tests run", () => {
  it('runs two api nodes and two workers, each pair with one command and one set of settings, beside the broker, Redis and the load balancer', () => {
    expect(Object.keys(services)).to.include.members(['postgres', 'temporal', 'redis', 'rabbitmq', 'haproxy', 'setup', 'api-1', 'api-2', 'worker-1', 'worker-2']);
    expect(services['api-1'].command).to.equal('node --import tsx api/main.ts');
    expect(services['api-2']).to.deep.equal(services['api-1']);
    expect(services['worker-1'].command).to.equal('node --import tsx activities/worker.ts');
    expect(services['worker-2']).to.deep.equal(services['worker-1']);
    // Every node and worker shares the secrets and the engines (docs/scaling.md "Variables").
    for (const name of ['api-1', 'api-2', 'worker-1', 'worker-2']) expect(env(name), name).to.deep.equal(env('setup'));
    const shared = env('api-1');
    expect(shared.MQTT_URL).to.match(/^mqtt:\/\/rabbitmq:1883$/);
    expect(shared.REDIS_URL).to.match(/^redis:\/\/redis:6379$/);
    expect(shared.MQTT_ADMIN_URL).to.match(/@rabbitmq:15672$/);
    expect(shared.TRUST_PROXY, 'haproxy is the one proxy in front').to.equal('1');
    expect(shared.HOST, 'haproxy reaches the api nodes across the compose network').to.equal('0.0.0.0');
    expect(shared.MIGRATE_ON_START, 'the one-shot setup migrates, not each node').to.equal('0');
    for (const key of ['JWT_SECRET', 'MQTT_INTERNAL_PASSWORD', 'CHANNEL_SECRETS_KEY', 'MQTT_HOOK_SECRET']) expect(shared[key], key).to.be.a('string').with.length.above(0);
  });

  it("gives RabbitMQ the plugins, the hooks and the settings of the cluster script's node, with the nodes' hook secret", () => {
    const volumes = services.rabbitmq.volumes ?? [];
    expect(volumes).to.include.members([
      './deploy/rabbitmq/rabbitmq.conf:/etc/rabbitmq/conf.d/20-balcao.conf:ro',
      './deploy/rabbitmq/advanced.config:/etc/rabbitmq/advanced.config:ro',
      './deploy/rabbitmq/enabled_plugins:/etc/rabbitmq/enabled_plugins:ro',
    ]);
    const plugins = /^\[([^\]]*)\]\.\s*$/m.exec(readFileSync('deploy/rabbitmq/enabled_plugins', 'utf8'))?.[1].split(',').map((p) => p.trim());
    expect(plugins).to.have.members(RABBIT_PLUGINS);
    const advanced = readFileSync('deploy/rabbitmq/advanced.config', 'utf8').split('\n').filter((l) => !l.startsWith('%%')).join('\n').trim();
    expect(advanced).to.equal(RABBIT_ADVANCED.trim());
    // The hooks go through the load balancer, as the one-machine topology's go through its haproxy.
    const secret = env('api-1').MQTT_HOOK_SECRET;
    const ports = { amqp: 1, mqtt: 2, ws: 3, management: 4, dist: 5 };
    const expected = new Map([...settings(rabbitConfig(ports, 'http://haproxy:8080', secret))].filter(([key]) => !LISTENING.test(key)));
    expect(Object.fromEntries(settings(readFileSync('deploy/rabbitmq/rabbitmq.conf', 'utf8')))).to.deep.equal(Object.fromEntries(expected));
  });

  it('has a load balancer haproxy accepts, /mqtt to the Web MQTT port and the rest round robin over both api nodes with their health check', () => {
    expect(services.haproxy.volumes).to.include('./deploy/haproxy/haproxy.cfg:/usr/local/etc/haproxy/haproxy.cfg:ro');
    expect(services.haproxy.ports).to.include('3000:8080');
    expect(env('api-1').PUBLIC_URL).to.equal('http://localhost:3000');
    const cfg = readFileSync('deploy/haproxy/haproxy.cfg', 'utf8');
    // haproxy comes with the other cluster tests' needs (.ci/run installs it from Debian).
    const checked = execFileSync(process.env.HAPROXY_BIN ?? 'haproxy', ['-c', '-f', 'deploy/haproxy/haproxy.cfg'], { encoding: 'utf8' });
    expect(checked).to.match(/Configuration file is valid/);
    const backend = (name: string) => new RegExp(`^backend ${name}\\n((?:  .*\\n)+)`, 'm').exec(cfg)?.[1] ?? '';
    expect(backend('api')).to.contain('balance roundrobin').and.contain('option httpchk GET /api/health');
    expect(backend('api')).to.match(/server api1 api-1:3000 check/).and.match(/server api2 api-2:3000 check/);
    // No web_mqtt.tcp.port in the container's conf: RabbitMQ's Web MQTT listens on its default, 15675.
    expect(backend('broker')).to.match(/server rabbit rabbitmq:15675 check/);
    expect(cfg).to.match(/acl mqtt path \/mqtt\n\s+use_backend broker if mqtt/);
  });
});
