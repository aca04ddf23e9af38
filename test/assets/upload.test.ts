import { expect } from 'chai';
import { startTestApi, type TestApi } from '../helpers/api';
import { makeOperator, makeWorkspace, type TestOperator } from '../helpers/factories';
import { signedDownloadUrl } from '../../api/assets/signedUrl';
import { download, filesOnDisk, PNG_1x1, upload } from './helpers';

describe('files: POST /api/assets/upload and signed downloads', () => {
  let api: TestApi;
  let agent: TestOperator;

  before(async () => {
    api = await startTestApi();
    agent = await makeOperator(api.deps.knex, api.config.jwtSecret, await makeWorkspace(api.deps.knex), 2);
  });
  after(() => api.close());

  const rowsOf = async () => (await api.deps.knex('stored_files').where({ workspaceId: agent.workspaceId }).count({ n: '*' }).first())!.n as number;

  it('stores a small PNG recognised by its magic bytes and serves it with the signed URL only', async () => {
    const res = await upload(api, agent.token, [{ name: 'foto.png', bytes: PNG_1x1, type: 'text/html' }]);
    expect(res.status).to.equal(201);
    const [file] = res.body.data;
    expect(file).to.include({ fileName: 'foto.png', mime: 'image/png', size: PNG_1x1.length });
    expect(file.key).to.match(/^[A-Za-z0-9_-]{24}$/);
    expect(file.url).to.match(new RegExp(`^${api.config.publicUrl}/api/assets/download/${file.key}\\?exp=\\d+&sig=[\\w-]+$`));

    const row = await api.deps.knex('stored_files').where({ key: file.key }).first();
    expect(row).to.include({ workspaceId: agent.workspaceId, operatorId: agent.id, mime: 'image/png', fileName: 'foto.png' });
    expect(row.sha256).to.match(/^[0-9a-f]{64}$/);

    const got = await download(api, file.url);
    expect(got.status).to.equal(200);
    expect(got.bytes.equals(PNG_1x1)).to.equal(true);
    expect(got.headers.get('content-type')).to.equal('image/png');
    expect(got.headers.get('x-content-type-options')).to.equal('nosniff');
    expect(got.headers.get('content-disposition')).to.equal(`inline; filename="foto.png"; filename*=UTF-8''foto.png`);

    const bare = await fetch(`${api.url}/api/assets/download/${file.key}`);
    expect(bare.status).to.equal(404);
    const withToken = await fetch(`${api.url}/api/assets/download/${file.key}`, { headers: { Authorization: `Bearer ${agent.token}` } });
    expect(withToken.status).to.equal(404);
  });

  it('answers 404 for a tampered, foreign or expired signature', async () => {
    const [file] = (await upload(api, agent.token, [{ name: 'a.png', bytes: PNG_1x1 }])).body.data;
    const [other] = (await upload(api, agent.token, [{ name: 'b.png', bytes: PNG_1x1 }])).body.data;
    const url = new URL(file.url);
    const sig = url.searchParams.get('sig')!;
    const tampered = new URL(file.url);
    tampered.searchParams.set('sig', (sig[0] === 'A' ? 'B' : 'A') + sig.slice(1));
    const later = new URL(file.url);
    later.searchParams.set('exp', String(Number(url.searchParams.get('exp')) + 3600));
    const swapped = new URL(other.url);
    swapped.pathname = url.pathname;
    const expired = signedDownloadUrl(api.config, file.key, Date.now() - 2 * 3600 * 1000);
    const noisy = `${file.url}x`;
    for (const candidate of [tampered.toString(), later.toString(), swapped.toString(), expired, noisy]) {
      const res = await download(api, candidate);
      expect(res.status, candidate).to.equal(404);
      expect(JSON.parse(res.bytes.toString()).errors[0].type).to.equal('NotFoundError');
    }
    expect((await download(api, file.url)).status).to.equal(200);
  });

  it('refuses a 17 MB file with 413 and leaves no file on disk and no row', async () => {
    const before = filesOnDisk(api);
    const rows = await rowsOf();
    const big = Buffer.alloc(17 * 1024 * 1024, 0x61);
    const res = await upload(api, agent.token, [
      { name: 'ok.png', bytes: PNG_1x1 },
      { name: 'grande.txt', bytes: big },
    ]);
    expect(res.status).to.equal(413);
    expect(res.body.errors[0]).to.deep.include({ type: 'PayloadTooLargeError', descriptions: ['O arquivo excede o limite de 16 MB.'] });
    expect(filesOnDisk(api)).to.deep.equal(before);
    expect(await rowsOf()).to.equal(rows);
  });

  it('accepts a file of exactly 16 MB', async () => {
    const res = await upload(api, agent.token, [{ name: 'limite.txt', bytes: Buffer.alloc(16 * 1024 * 1024, 0x62) }]);
    expect(res.status).to.equal(201);
    expect(res.body.data[0]).to.include({ mime: 'text/plain', size: 16 * 1024 * 1024 });
  });

  it('refuses HTML renamed .png, executables, SVG with script and non-UTF-8 text, storing nothing', async () => {
    const before = filesOnDisk(api);
    const rows = await rowsOf();
    const bad: [string, Buffer | string][] = [
      ['foto.png', '<!DOCTYPE html><html><body><script>alert(1)</script></body></html>'],
      ['pagina.png', '  <p>Olá</p>'],
      ['programa.png', Buffer.concat([Buffer.from([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1, 0]), Buffer.alloc(120)])],
      ['logo.svg', '<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'],
      ['logo2.svg', '<svg xmlns="http://www.w3.org/2000/svg"><rect onload="alert(1)"/></svg>'],
      ['latin1.txt', Buffer.from('ol\xe1 mundo', 'latin1')],
      ['binario.bin', Buffer.from([0x00, 0x01, 0x02, 0x03, 0xff])],
    ];
    for (const [name, bytes] of bad) {
      const res = await upload(api, agent.token, [{ name: 'ok.png', bytes: PNG_1x1 }, { name, bytes }]);
      expect(res.status, name).to.equal(400);
      expect(res.body.errors, name).to.deep.equal([{ type: 'ValidationError', title: 'Dados inválidos', key: 'file1', descriptions: ['Tipo de arquivo não permitido.'] }]);
    }
    expect(filesOnDisk(api)).to.deep.equal(before);
    expect(await rowsOf()).to.equal(rows);
  });

  it('accepts UTF-8 text, CSV, PDF and a script-free SVG, and serves non-media as attachment', async () => {
    const pdf = Buffer.from('%PDF-1.4\n1 0 obj\n<<>>\nendobj\ntrailer\n<<>>\n%%EOF\n');
    const res = await upload(api, agent.token, [
      { name: 'notas.txt', bytes: 'Olá, açúcar e pão ✓\n<script> num texto é só texto\n' },
      { name: 'lista.csv', bytes: 'telefone\n5511999999999\n' },
      { name: 'contrato.pdf', bytes: pdf },
      { name: 'logo.svg', bytes: '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><rect width="10" height="10"/></svg>' },
    ]);
    expect(res.status).to.equal(201);
    expect(res.body.data.map((f: { mime: string }) => f.mime)).to.deep.equal(['text/plain', 'text/csv', 'application/pdf', 'image/svg+xml']);
    const text = await download(api, res.body.data[0].url);
    expect(text.headers.get('content-type')).to.equal('text/plain; charset=utf-8');
    expect(text.headers.get('content-disposition')).to.match(/^attachment; /);
    expect(text.bytes.toString('utf8')).to.contain('açúcar');
    const svg = await download(api, res.body.data[3].url);
    expect(svg.headers.get('content-disposition')).to.match(/^attachment; /);
    expect(svg.headers.get('content-security-policy')).to.contain('sandbox');
  });

  it('sanitises file names and sends them back per RFC 5987', async () => {
    const long = `${'x'.repeat(300)}.png`;
    const res = await upload(api, agent.token, [
      { name: '../../etc/pa\u200Bss\u202Ewd.png', bytes: PNG_1x1 },
      { name: long, bytes: PNG_1x1 },
      { name: "relatório d'água (final).png", bytes: PNG_1x1 },
      { name: '...', bytes: PNG_1x1 },
    ]);
    expect(res.status).to.equal(201);
    const names = res.body.data.map((f: { fileName: string }) => f.fileName);
    expect(names[0]).to.equal('passwd.png');
    expect([...names[1]]).to.have.length(200);
    expect(names[1]).to.match(/^x+\.png$/);
    expect(names[2]).to.equal("relatório d'água (final).png");
    expect(names[3]).to.equal('arquivo');
    const got = await download(api, res.body.data[2].url);
    expect(got.headers.get('content-disposition')).to.equal(
      `inline; filename="relat_rio d'_gua (final).png"; filename*=UTF-8''relat%C3%B3rio%20d%27%C3%A1gua%20%28final%29.png`,
    );
  });

  it('rejects calls without a token, without multipart, without files or with too many files', async () => {
    expect((await upload(api, undefined, [{ name: 'a.png', bytes: PNG_1x1 }])).status).to.equal(401);
    const json = await api.request('POST', '/api/assets/upload', { token: agent.token, body: { file0: 'x' } });
    expect(json.status).to.equal(400);
    expect(json.body.errors[0].descriptions).to.deep.equal(['Envie os arquivos como multipart/form-data.']);
    const none = await upload(api, agent.token, [{ field: 'avatar', name: 'a.png', bytes: PNG_1x1 }]);
    expect(none.status).to.equal(400);
    expect(none.body.errors[0]).to.include({ key: 'file0' });
    const before = filesOnDisk(api);
    const many = await upload(api, agent.token, Array.from({ length: 11 }, (_, i) => ({ name: `${i}.png`, bytes: PNG_1x1 })));
    expect(many.status).to.equal(400);
    expect(many.body.errors[0].descriptions).to.deep.equal(['Envie no máximo 10 arquivos por vez.']);
    expect(filesOnDisk(api)).to.deep.equal(before);
    const broken = await fetch(`${api.url}/api/assets/upload`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${agent.token}`, 'Content-Type': 'multipart/form-data; boundary=xyz' },
      body: '--xyz\r\nContent-Disposition: form-data; name="file0"; filename="a.txt"\r\n\r\nabc',
    });
    expect(broken.status).to.equal(400);
    expect(filesOnDisk(api)).to.deep.equal(before);
  });
});

describe('file name sanitising', () => {
  it('drops directories, control and bidi characters, leading dots, and keeps the extension when cutting to 200', async () => {
    const { sanitizeFileName } = await import('../../api/assets/fileNames');
    expect(sanitizeFileName('C:\\Users\\ana\\foto.jpg')).to.equal('foto.jpg');
    expect(sanitizeFileName('a\u0000b\u0007c\u202Ed\n.txt')).to.equal('abcd.txt');
    expect(sanitizeFileName('.htaccess')).to.equal('htaccess');
    expect(sanitizeFileName('')).to.equal('arquivo');
    expect(sanitizeFileName(undefined)).to.equal('arquivo');
    const cut = sanitizeFileName(`${'é'.repeat(250)}.pdf`);
    expect([...cut]).to.have.length(200);
    expect(cut.endsWith('.pdf')).to.equal(true);
  });
});

describe('signed download URLs', () => {
  const config = { jwtSecret: 'x'.repeat(48), publicUrl: 'https://balcao.example' };

  it('are valid for one hour (rounded up to 5 minutes, so repeated renders share one URL) and no longer', async () => {
    const { signedDownloadUrl, verifyDownloadSignature } = await import('../../api/assets/signedUrl');
    const now = Date.UTC(2026, 0, 1, 12, 0, 1);
    const url = new URL(signedDownloadUrl(config, 'abcdefghij', now));
    expect(url.origin + url.pathname).to.equal('https://balcao.example/api/assets/download/abcdefghij');
    expect(signedDownloadUrl(config, 'abcdefghij', now + 60_000)).to.equal(url.toString());
    const exp = url.searchParams.get('exp');
    const sig = url.searchParams.get('sig');
    expect(Number(exp) * 1000 - now).to.be.within(3600_000, 3900_000);
    expect(verifyDownloadSignature(config, 'abcdefghij', exp, sig, now + 3599_000)).to.equal(true);
    expect(verifyDownloadSignature(config, 'abcdefghij', exp, sig, Number(exp) * 1000)).to.equal(false);
    expect(verifyDownloadSignature(config, 'abcdefghik', exp, sig, now)).to.equal(false);
    expect(verifyDownloadSignature({ jwtSecret: 'y'.repeat(48) }, 'abcdefghij', exp, sig, now)).to.equal(false);
    expect(verifyDownloadSignature(config, 'abcdefghij', undefined, sig, now)).to.equal(false);
    expect(verifyDownloadSignature(config, 'abcdefghij', [exp], sig, now)).to.equal(false);
  });
});
