import { expect } from 'chai';
import { blockedReason, guardedFetch, GuardedFetchError, parseAllowedNetworks, validateUserUrl } from '../../api/http/guardedFetch';
import { loadConfig } from '../../api/config';
import { WebhookReceiver } from '../fakes/webhookReceiver';

const opts = { timeoutMs: 2000, maxBytes: 1024 };

async function refusal(url: string, options: Partial<typeof opts> & { allowLoopbackForTests?: boolean } = {}): Promise<GuardedFetchError> {
  try {
    await guardedFetch(url, { method: 'POST', body: '{}' }, { ...opts, ...options });
  } catch (err) {
    expect(err).to.be.instanceOf(GuardedFetchError);
    return err as GuardedFetchError;
  }
  throw new Error(`${url} was not refused`);
}

describe('guardedFetch: the one client for user-supplied URLs', function () {
  this.timeout(15_000);

  const refusedTargets: [string, string][] = [
    ['loopback', 'https://127.0.0.1/x'],
    ['loopback elsewhere in 127/8', 'https://127.8.9.10/x'],
    ['IPv6 loopback', 'https://[::1]/x'],
    ['private 10/8', 'https://10.1.2.3/x'],
    ['private 172.16/12', 'https://172.20.0.1/x'],
    ['private 192.168/16', 'https://192.168.0.10/x'],
    ['link-local / metadata', 'https://169.254.169.254/latest/meta-data'],
    ['IPv6 link-local', 'https://[fe80::1]/x'],
    ['CGNAT 100.64/10', 'https://100.100.1.1/x'],
    ['unique local fc00::/7', 'https://[fd12:3456::1]/x'],
    ['unspecified', 'https://0.0.0.0/x'],
    ['IPv6 unspecified', 'https://[::]/x'],
    ['multicast', 'https://224.0.0.1/x'],
    ['IPv6 multicast', 'https://[ff02::1]/x'],
    ['IPv4-mapped IPv6 loopback', 'https://[::ffff:127.0.0.1]/x'],
    ['IPv4-mapped IPv6 private (hex form)', 'https://[::ffff:a00:1]/x'],
    ['hex-encoded host', 'https://0x7f000001/x'],
    ['decimal-encoded host', 'https://2130706433/x'],
    ['short dotted host', 'https://127.1/x'],
    ['octal dotted host', 'https://0177.0.0.1/x'],
    ['a name that resolves to loopback', 'https://localhost/x'],
  ];

  for (const [label, url] of refusedTargets) {
    it(`refuses ${label} (${url}) before connecting`, async () => {
      const err = await refusal(url);
      expect(err.code).to.equal('blocked_address');
      expect(await validateUserUrl(url)).to.equal('Endereço interno não permitido');
    });
  }

  it('refuses plain http, and http even with the test option when the target is not loopback', async () => {
    expect((await refusal('http://example.com/x')).code).to.equal('scheme');
    expect((await refusal('http://10.0.0.1/x', { allowLoopbackForTests: true })).code).to.equal('blocked_address');
    expect(await validateUserUrl('http://example.com/x')).to.equal('A URL deve começar com https://');
    expect(await validateUserUrl('ftp://example.com/x')).to.equal('A URL deve começar com https://');
  });

  it('accepts public https URLs at validation and public addresses in the filter', async () => {
    expect(await validateUserUrl('https://hooks.example.test/x', { resolveDns: false })).to.equal(null);
    expect(await validateUserUrl('https://8.8.8.8/x')).to.equal(null);
    expect(blockedReason('93.184.216.34')).to.equal(null);
    expect(blockedReason('2606:2800:220:1:248:1893:25c8:1946')).to.equal(null);
    expect(blockedReason('172.32.0.1')).to.equal(null);
    expect(blockedReason('100.128.0.1')).to.equal(null);
  });

  describe('OUTBOUND_ALLOWED_NETWORKS (operator exemptions)', () => {
    const saved = process.env.OUTBOUND_ALLOWED_NETWORKS;
    afterEach(() => {
      if (saved === undefined) delete process.env.OUTBOUND_ALLOWED_NETWORKS;
      else process.env.OUTBOUND_ALLOWED_NETWORKS = saved;
    });

    it('unset or empty: the guard is unchanged', async () => {
      delete process.env.OUTBOUND_ALLOWED_NETWORKS;
      expect(blockedReason('10.20.1.5')).to.match(/não é público/);
      process.env.OUTBOUND_ALLOWED_NETWORKS = ' ';
      expect(blockedReason('10.20.1.5')).to.match(/não é público/);
      expect((await refusal('https://10.20.1.5/hook')).code).to.equal('blocked_address');
    });

    it('exempts exactly the listed networks (IPv4, IPv4-mapped and IPv6), nothing around them', async () => {
      process.env.OUTBOUND_ALLOWED_NETWORKS = '10.20.0.0/16, fd12:3456::/32';
      expect(blockedReason('10.20.1.5')).to.equal(null);
      expect(blockedReason('::ffff:10.20.1.5')).to.equal(null);
      expect(blockedReason('fd12:3456::1')).to.equal(null);
      expect(blockedReason('10.21.0.1')).to.match(/não é público/);
      expect(blockedReason('169.254.169.254')).to.match(/não é público/);
      expect(blockedReason('fd12:3457::1')).to.match(/não é público/);
      expect(await validateUserUrl('https://10.20.1.5/hook')).to.equal(null);
      expect(await validateUserUrl('https://10.21.0.1/hook')).to.not.equal(null);
    });

    it('a wrong entry stops the start with its name (loadConfig), never a silently open guard', () => {
      expect(() => parseAllowedNetworks('10.0.0.0/8,intranet')).to.throw('"intranet" is not a CIDR');
      expect(() => parseAllowedNetworks('10.0.0.0/33')).to.throw('"10.0.0.0/33"');
      expect(() => loadConfig({ OUTBOUND_ALLOWED_NETWORKS: '192.168.1.0' })).to.throw('OUTBOUND_ALLOWED_NETWORKS');
    });
  });

  describe('against a loopback receiver (test option)', () => {
    const receiver = new WebhookReceiver();
    before(() => receiver.start());
    after(() => receiver.stop());

    it('posts and returns the status, headers and body', async () => {
      receiver.respond = () => 202;
      const res = await guardedFetch(receiver.url, { method: 'POST', headers: { 'content-type': 'application/json', 'webhook-id': 'msg_1' }, body: '{"a":1}' }, { ...opts, allowLoopbackForTests: true });
      expect(res.status).to.equal(202);
      expect(receiver.all.at(-1)).to.include({ id: 'msg_1', body: '{"a":1}' });
    });

    it('is refused without the test option even on loopback', async () => {
      expect((await refusal(receiver.url)).code).to.equal('scheme');
    });

    it('hands a redirect back instead of following it', async () => {
      receiver.respond = () => ({ status: 302, headers: { location: 'http://169.254.169.254/' } });
      const before = receiver.all.length;
      const res = await guardedFetch(receiver.url, { method: 'POST', body: '{}' }, { ...opts, allowLoopbackForTests: true });
      expect(res.status).to.equal(302);
      expect(res.headers.location).to.equal('http://169.254.169.254/');
      expect(receiver.all.length).to.equal(before + 1);
    });
  });

  it('gives up after the timeout and when the response is larger than the cap', async () => {
    const http = await import('node:http');
    const server = http.createServer((req, res) => {
      if (req.url === '/slow') return; // never answers
      res.writeHead(200).end('x'.repeat(10_000));
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const port = (server.address() as { port: number }).port;
    try {
      const started = Date.now();
      expect((await refusal(`http://127.0.0.1:${port}/slow`, { allowLoopbackForTests: true, timeoutMs: 300 })).code).to.equal('timeout');
      expect(Date.now() - started).to.be.lessThan(2000);
      expect((await refusal(`http://127.0.0.1:${port}/big`, { allowLoopbackForTests: true, maxBytes: 1000 })).code).to.equal('too_large');
    } finally {
      server.closeAllConnections();
      server.close();
    }
  });
});
