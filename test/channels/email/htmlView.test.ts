import { expect } from 'chai';
import { Parser } from 'htmlparser2';
import { htmlViewDocument, sanitizeEmailHtml } from '../../../api/channels/email/htmlView';
import { HTML_ATTACKS } from './htmlAttacks';

/** The elements and attributes a browser-like parser finds in `html`. */
function parsed(html: string): { tags: string[]; attributes: string[] } {
  const tags: string[] = [];
  const attributes: string[] = [];
  const parser = new Parser({
    onopentag(name, attrs) {
      tags.push(name);
      for (const [k, v] of Object.entries(attrs)) attributes.push(`${k}=${v}`);
    },
  });
  parser.write(html);
  parser.end();
  return { tags, attributes };
}

describe('E-mail channel: the "Mostrar imagens" view sanitizes the HTML by parsing it', () => {

  for (const attack of HTML_ATTACKS) {
    it(`leaves nothing that runs, redirects or rebases from ${attack}`, () => {
      const out = sanitizeEmailHtml(attack);
      const { tags, attributes } = parsed(out);
      expect(tags.filter((t) => ['meta', 'base', 'script', 'iframe', 'form', 'input', 'svg', 'link', 'object'].includes(t)), out).to.deep.equal([]);
      expect(attributes.filter((a) => /^on|javascript:/i.test(a)), out).to.deep.equal([]);
    });
  }

  it('keeps the e-mail as it looks: text, tables, styles, https and data: images, links', () => {
    const html =
      '<style>p { color: #333 }</style><table width="600" bgcolor="#ffffff" cellpadding="4"><tr><td align="center" style="font-size:14px">' +
      '<p>Olá <b>Ana</b>, <a href="https://loja.example/pedido">seu pedido</a></p>' +
      '<img src="https://imagens.example/banner.png" alt="banner" width="600"><img src="data:image/png;base64,iVBORw0KGgo=" alt="logo"></td></tr></table>';
    const out = sanitizeEmailHtml(html);
    expect(out).to.include('<style>p { color: #333 }</style>');
    expect(out).to.include('<table width="600" bgcolor="#ffffff" cellpadding="4">');
    expect(out).to.include('<td align="center" style="font-size:14px">');
    expect(out).to.include('<a href="https://loja.example/pedido">seu pedido</a>');
    expect(out).to.include('<img src="https://imagens.example/banner.png" alt="banner" width="600" />');
    expect(out).to.include('<img src="data:image/png;base64,iVBORw0KGgo=" alt="logo" />');
  });

  it('the view document has only its own meta and base (charset, target=_blank)', () => {
    const doc = htmlViewDocument('<me<meta>ta http-equiv=refresh content="0;url=https://mal.example"><ba<base>se href="https://mal.example/"><p>oi</p>');
    const { tags, attributes } = parsed(doc);
    expect(tags.filter((t) => t === 'meta' || t === 'base')).to.deep.equal(['meta', 'base']);
    expect(attributes).to.include('charset=utf-8').and.include('target=_blank');
    expect(attributes.filter((a) => a.startsWith('http-equiv') || a.startsWith('href'))).to.deep.equal([]);
  });
});
