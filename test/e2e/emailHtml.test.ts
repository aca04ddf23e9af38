import { expect } from 'chai';
import { blockedEmailHtml, hasRemoteContent } from '../../ui/src/settings/channels/email/emailHtml';

/**
 * The e-mail HTML the inbox frame shows while remote content is blocked: no address left that the browser
 * could fetch, even before it reads the frame's CSP (a CI run saw the tracker image requested once).
 */
describe('e-mail HTML with remote content blocked', () => {
  const tracker = 'http://127.0.0.1:4000/rastreio.png';

  it('leaves no image, source, poster, background or stylesheet address that would fetch, in any quoting', () => {
    const html = [
      `<img src="${tracker}" alt="a">`,
      `<IMG SRC='${tracker}'>`,
      `<img src=${tracker}>`,
      `<img srcset="${tracker} 2x">`,
      `<img src="/relativo.png">`,
      `<picture><source srcset="${tracker}"></picture>`,
      `<video poster="${tracker}"></video>`,
      `<table background="${tracker}"><tr><td background='${tracker}'>x</td></tr></table>`,
      `<div style="background-image: url('${tracker}')">y</div>`,
      `<style>body { background: url(${tracker}) }</style>`,
      `<link rel="stylesheet" href="${tracker}">`,
    ].join('');
    const out = blockedEmailHtml(html);
    expect(out).to.not.match(/\s(src|srcset|poster|background)\s*=/i);
    expect(out).to.not.match(/url\(/i);
    expect(out).to.not.include('<link');
    expect(out).to.include(`data-blocked-src="${tracker}"`);
  });

  it('keeps data: images, text and links, and still drops scripts, meta and base', () => {
    const html = '<p>Olá <b>Ana</b> <a href="https://loja.example/pedido">pedido</a></p><img src="data:image/png;base64,iVBORw0KGgo=" alt="logo"><script>alert(1)</script><meta http-equiv="refresh" content="0;url=https://x.example"><base href="https://x.example/">';
    const out = blockedEmailHtml(html);
    expect(out).to.include('<img src="data:image/png;base64,iVBORw0KGgo=" alt="logo">');
    expect(out).to.include('<a href="https://loja.example/pedido">pedido</a>');
    expect(out).to.not.match(/<script|<meta|<base/i);
  });

  it('offers "Mostrar imagens" only when something remote is named', () => {
    expect(hasRemoteContent(`<img src="${tracker}">`)).to.equal(true);
    expect(hasRemoteContent('<p>texto</p><img src="data:image/png;base64,AA==">')).to.equal(false);
  });
});
