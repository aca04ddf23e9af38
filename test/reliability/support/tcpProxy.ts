import net from 'node:net';

/**
 * A TCP proxy on loopback between a client and a server (here: the api child and PostgreSQL), so a test
 * can make the server unreachable for that client alone without stopping it. `cut('refuse')` drops every
 * open connection and closes new ones at once (server gone); `cut('blackhole')` drops them and holds new
 * ones open without answering (network partition); `restore()` forwards again.
 */
export class TcpProxy {
  private server?: net.Server;
  private readonly open = new Set<net.Socket>();
  private mode: 'forward' | 'refuse' | 'blackhole' = 'forward';
  port = 0;
  /** Connections accepted so far. */
  accepted = 0;

  constructor(
    private readonly targetHost: string,
    private readonly targetPort: number,
  ) {}

  async start(): Promise<void> {
    const server = net.createServer((socket) => {
      this.accepted++;
      this.open.add(socket);
      socket.on('error', () => undefined);
      socket.once('close', () => this.open.delete(socket));
      if (this.mode === 'refuse') {
        socket.destroy();
        return;
      }
      if (this.mode === 'blackhole') return;
      const upstream = net.connect(this.targetPort, this.targetHost);
      this.open.add(upstream);
      upstream.on('error', () => socket.destroy());
      upstream.once('close', () => {
        this.open.delete(upstream);
        socket.destroy();
      });
      socket.once('close', () => upstream.destroy());
      socket.pipe(upstream);
      upstream.pipe(socket);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    this.port = (server.address() as net.AddressInfo).port;
    this.server = server;
  }

  cut(mode: 'refuse' | 'blackhole' = 'refuse'): void {
    this.mode = mode;
    for (const s of this.open) s.destroy();
  }

  restore(): void {
    for (const s of this.open) s.destroy();
    this.mode = 'forward';
  }

  async stop(): Promise<void> {
    for (const s of this.open) s.destroy();
    const server = this.server;
    this.server = undefined;
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}
