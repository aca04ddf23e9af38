/** Baseline for the HTTP floor: node:http answering a small JSON body, nothing else. */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

const body = JSON.stringify({ data: { id: 1, name: 'Padaria Pão Quente', timeZone: 'America/Sao_Paulo' } });
const server = http.createServer((_req, res) => {
  res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) });
  res.end(body);
});
server.keepAliveTimeout = 65_000;
server.listen(0, '127.0.0.1', () => console.log(`PORT=${(server.address() as AddressInfo).port}`));
process.on('SIGTERM', () => server.close(() => process.exit(0)));
