import { execFile } from 'node:child_process';
import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { expect } from 'chai';
import { CHANNEL_PAGES, type ChannelPageKey, type SiteImage } from '../../ui/src/public/content/channels';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const contentDir = path.join(root, 'ui/src/public/content');
const publicDir = path.join(root, 'ui/public');

interface Rendered {
  terms: string;
  privacy: string;
  ganhoMais: string;
  dev: string;
  stops: number[];
  tiers: { price: number; hours: number }[];
}

/**
 * Renders the content components with react-dom/server in a child process: they are .tsx written for the UI's
 * tsconfig (automatic JSX runtime), which tsx applies when TSX_TSCONFIG_PATH names it; the tests' own tsconfig
 * has no JSX and no DOM.
 */
async function renderContent(): Promise<Rendered> {
  const url = (file: string) => pathToFileURL(path.join(contentDir, file)).href;
  const script = `
    import { createElement } from 'react';
    import { renderToStaticMarkup } from 'react-dom/server';
    const render = async (file, name) => renderToStaticMarkup(createElement((await import(file))[name]));
    const dev = await import(${JSON.stringify(url('DevContractContent.tsx'))});
    process.stdout.write(JSON.stringify({
      terms: await render(${JSON.stringify(url('TermsContent.tsx'))}, 'TermsContent'),
      privacy: await render(${JSON.stringify(url('PrivacyContent.tsx'))}, 'PrivacyContent'),
      ganhoMais: await render(${JSON.stringify(url('GanhoMaisContent.tsx'))}, 'GanhoMaisContent'),
      dev: renderToStaticMarkup(createElement(dev.DevContractContent)),
      stops: [...dev.DEV_CONTRACT_STOPS],
      tiers: dev.DEV_CONTRACT_TIERS.map((t) => ({ price: t.price, hours: t.hours })),
    }));
  `;
  const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
    cwd: root,
    env: { ...process.env, TSX_TSCONFIG_PATH: path.join(root, 'ui/tsconfig.json') },
    maxBuffer: 8 * 1024 * 1024,
  });
  return JSON.parse(stdout) as Rendered;
}

/** Width and height from a WebP file's header (lossy VP8, lossless VP8L or extended VP8X). */
function webpSize(bytes: Buffer): { width: number; height: number } {
  if (bytes.toString('ascii', 0, 4) !== 'RIFF' || bytes.toString('ascii', 8, 12) !== 'WEBP') throw new Error('not a WebP file');
  const chunk = bytes.toString('ascii', 12, 16);
  if (chunk === 'VP8 ') return { width: bytes.readUInt16LE(26) & 0x3fff, height: bytes.readUInt16LE(28) & 0x3fff };
  if (chunk === 'VP8L') {
    const bits = bytes.readUInt32LE(21);
    return { width: (bits & 0x3fff) + 1, height: ((bits >>> 14) & 0x3fff) + 1 };
  }
  if (chunk === 'VP8X') return { width: bytes.readUIntLE(24, 3) + 1, height: bytes.readUIntLE(27, 3) + 1 };
  throw new Error(`unknown WebP chunk ${chunk}`);
}

/** Width and height from a JPEG's start-of-frame marker. */
function jpegSize(bytes: Buffer): { width: number; height: number } {
  if (bytes.readUInt16BE(0) !== 0xffd8) throw new Error('not a JPEG file');
  let at = 2;
  while (at < bytes.length) {
    const marker = bytes.readUInt16BE(at);
    const isFrame = marker >= 0xffc0 && marker <= 0xffcf && ![0xffc4, 0xffc8, 0xffcc].includes(marker);
    if (isFrame) return { height: bytes.readUInt16BE(at + 5), width: bytes.readUInt16BE(at + 7) };
    at += 2 + bytes.readUInt16BE(at + 2);
  }
  throw new Error('no frame in the JPEG');
}

const text = (html: string) => html.replace(/<[^>]+>/g, ' ').replace(/&quot;/g, '"').replace(/&#x27;/g, "'").replace(/&amp;/g, '&').replace(/\s+/g, ' ');

describe('public site content (ui/src/public/content)', function () {
  this.timeout(60_000);
  let rendered: Rendered;

  before(async () => {
    rendered = await renderContent();
  });

  describe('Termos de Uso', () => {
    it('has exactly 17 sections, numbered 1 to 17 in order, each with an id', () => {
      const sections = [...rendered.terms.matchAll(/<section id="([a-z-]+)"[^>]*><h2[^>]*>(\d+)\. /g)];
      expect(sections).to.have.length(17);
      expect(sections.map((m) => Number(m[2]))).to.deep.equal(Array.from({ length: 17 }, (_, i) => i + 1));
      expect(new Set(sections.map((m) => m[1])).size).to.equal(17);
      expect((rendered.terms.match(/<section /g) ?? []).length).to.equal(17);
    });

    it('states the rules SPEC gives the terms (trial, refund, notice, login, billing, cap, payment, file limit)', () => {
      const t = text(rendered.terms);
      for (const phrase of [
        '7 dias',
        'uma única vez por e-mail comercial único',
        '30 dias sem cartão de crédito',
        'prevalecem',
        'Não há reembolso',
        'até o fim do período já pago',
        '7 dias de antecedência',
        'Um login por pessoa',
        'mensal ou anual',
        'paga antes do período',
        'se renova automaticamente',
        'no mesmo dia',
        '12 meses',
        'Pix ou Boleto',
        '16 MB',
      ]) {
        expect(t, phrase).to.include(phrase);
      }
    });

    it('covers what a Brazilian SaaS contract needs and names the operator through the tokens the api fills from OPERATOR_*', () => {
      const t = text(rendered.terms);
      for (const phrase of ['Definições', 'LGPD', 'href="/privacy', 'WhatsApp', 'spam', 'carência de 3 dias', 'Propriedade intelectual', 'leis da República Federativa do Brasil', 'foro da comarca de']) {
        expect(phrase.startsWith('href') ? rendered.terms : t, phrase).to.include(phrase);
      }
      for (const token of ['%BALCAO_OPERATOR_LEGAL_NAME%', '%BALCAO_OPERATOR_ADDRESS%', '%BALCAO_OPERATOR_FORUM%', '%BALCAO_OPERATOR_CONTACT_EMAIL%']) expect(t, token).to.include(token);
    });

    it('links only to anchors that exist (in the terms themselves or in the privacy policy)', () => {
      const local = [...rendered.terms.matchAll(/href="#([a-z-]+)"/g)].map((m) => m[1]);
      for (const id of local) expect(rendered.terms, id).to.include(`id="${id}"`);
      const toPrivacy = [...rendered.terms.matchAll(/href="\/privacy#([a-z-]+)"/g)].map((m) => m[1]);
      expect(local.length).to.be.greaterThan(0);
      expect(toPrivacy.length).to.be.greaterThan(0);
      for (const id of toPrivacy) expect(rendered.privacy, id).to.include(`<section id="${id}"`);
    });
  });

  describe('Política de Privacidade', () => {
    it('lists the data-subject rights of LGPD art. 18 and how to ask for them', () => {
      const t = text(rendered.privacy);
      expect(t).to.include('Lei 13.709/2018');
      expect(t).to.include('art. 18');
      for (const right of [
        'confirmação da existência de tratamento',
        'acesso aos dados',
        'correção de dados incompletos, inexatos ou desatualizados',
        'anonimização, o bloqueio ou a eliminação',
        'portabilidade',
        'eliminação dos dados tratados com o consentimento',
        'informação das entidades públicas e privadas',
        'possibilidade de não fornecer consentimento',
        'revogação do consentimento',
      ]) {
        expect(t, right).to.include(right);
      }
      expect(t).to.include('%BALCAO_OPERATOR_DPO_EMAIL%');
    });

    it('names the roles, the sub-processors and the browser storage the product really uses', () => {
      const t = text(rendered.privacy);
      for (const phrase of ['controlador', 'operador', 'Meta', 'Telegram', 'Asaas', 'provedores de e-mail', 'localStorage', 'não usa cookies', 'Transferência internacional', 'ANPD']) {
        expect(t, phrase).to.include(phrase);
      }
    });
  });

  describe('channel pages (CHANNEL_PAGES)', () => {
    const keys: ChannelPageKey[] = ['whatsapp', 'facebook', 'telegram', 'instagram', 'email', 'features', 'bot'];

    it('has the seven pages at their paths, each with a description of at most 160 characters', () => {
      expect(CHANNEL_PAGES.map((p) => p.key).sort()).to.deep.equal([...keys].sort());
      for (const page of CHANNEL_PAGES) {
        expect(page.path, page.key).to.equal(`/${page.key}`);
        expect(page.description.length, page.key).to.be.within(50, 160);
        expect(page.title, page.key).to.not.equal('');
        expect(page.sections.length, page.key).to.be.at.least(3);
        expect(page.iconSvg, page.key).to.match(/^<svg [^>]*viewBox="0 0 24 24"/);
      }
      expect(new Set(CHANNEL_PAGES.map((p) => p.title)).size).to.equal(CHANNEL_PAGES.length);
    });

    it('points at WebP images under /site/img/ that exist with the stated width and height', () => {
      const images: SiteImage[] = CHANNEL_PAGES.flatMap((p) => [p.banner, ...p.screenshots]);
      for (const image of images) {
        expect(image.src, image.src).to.match(/^\/site\/img\/[a-z-]+\.webp$/);
        expect(image.alt.length, image.src).to.be.greaterThan(10);
        const bytes = readFileSync(path.join(publicDir, image.src));
        expect(webpSize(bytes), image.src).to.deep.equal({ width: image.width, height: image.height });
        expect(bytes.length, `${image.src} size`).to.be.at.most(60 * 1024);
      }
    });

    it('has a 1200×630 JPEG og:image for the site', () => {
      const file = path.join(publicDir, 'site/img/og.jpg');
      expect(jpegSize(readFileSync(file))).to.deep.equal({ width: 1200, height: 630 });
      expect(statSync(file).size).to.be.at.most(200 * 1024);
    });
  });

  describe('/desenvolvimento price slider', () => {
    it('stops at exactly 0, 2000, 4000, 6000, 8000, 10000 and 22000, one tier per stop', () => {
      expect(rendered.stops).to.deep.equal([0, 2000, 4000, 6000, 8000, 10000, 22000]);
      expect(rendered.tiers.map((t) => t.price)).to.deep.equal(rendered.stops);
      expect(rendered.tiers.map((t) => t.hours)).to.deep.equal([0, 10, 20, 30, 40, 50, 110]);
    });

    it('renders an accessible range input over the stops and, for pages without JavaScript, the table of every tier', () => {
      const html = rendered.dev;
      const input = html.match(/<input[^>]*type="range"[^>]*>/)?.[0] ?? '';
      expect(input).to.include('min="0"');
      expect(input).to.include(`max="${rendered.stops.length - 1}"`);
      expect(input).to.match(/aria-valuetext="R\$\s4\.000: Integração, 20 horas de desenvolvimento"/);
      // The slider waits for hydration; the table is there from the start.
      expect(html).to.match(/<section class="site-dev-slider"[^>]*hidden=""/);
      const rows = html.match(/<tbody>.*<\/tbody>/)?.[0] ?? '';
      expect((rows.match(/<tr>/g) ?? []).length).to.equal(7);
      for (const price of ['R$ 0', 'R$ 2.000', 'R$ 10.000', 'R$ 22.000']) expect(text(rows).replace(/\u00a0/g, ' '), price).to.include(price);
    });
  });

  describe('/ganhomais', () => {
    it('explains the referral programme: commission, discount, payout and rules', () => {
      const t = text(rendered.ganhoMais).replace(/\u00a0/g, ' ');
      for (const phrase of ['20%', '12 meses', '10% de desconto', 'Pix', 'R$ 50,00', 'Regras', 'Não vale indicar a própria empresa', 'R$ 89,80 por mês']) {
        expect(t, phrase).to.include(phrase);
      }
      expect((rendered.ganhoMais.match(/<h1>/g) ?? []).length).to.equal(1);
    });
  });
});
