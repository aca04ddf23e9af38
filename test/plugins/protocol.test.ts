import { expect } from 'chai';
import { isFromPlugin, parsePluginRequest, pluginOrigin, pluginSrc } from '../../ui/src/inbox/plugins/protocol';
import { pluginEndpointProblem } from '../../api/plugins/endpoint';

describe('plugin frame protocol (ui/src/inbox/plugins/protocol.ts)', () => {
  const frame = { name: 'plugin window' };
  const other = { name: 'another window' };

  it('accepts a message only from the plugin frame window, with its origin or the sandbox\'s opaque "null"', () => {
    expect(isFromPlugin({ source: frame, origin: 'null' }, frame, 'https://crm.example.com')).to.equal(true);
    expect(isFromPlugin({ source: frame, origin: 'https://crm.example.com' }, frame, 'https://crm.example.com')).to.equal(true);
    expect(isFromPlugin({ source: other, origin: 'null' }, frame, 'https://crm.example.com')).to.equal(false);
    expect(isFromPlugin({ source: frame, origin: 'https://evil.example' }, frame, 'https://crm.example.com')).to.equal(false);
    expect(isFromPlugin({ source: null, origin: 'null' }, null, 'https://crm.example.com')).to.equal(false);
  });

  it('parses the known requests and ignores anything else', () => {
    expect(parsePluginRequest({ event: 'toast', data: { message: 'Oi', type: 'success' } })).to.deep.equal({ event: 'toast', data: { message: 'Oi', type: 'success' } });
    expect(parsePluginRequest({ event: 'toast', data: { message: 'Oi', type: 'html' } })).to.equal(undefined);
    expect(parsePluginRequest({ event: 'dialog_confirm', id: 7, data: { message: 'Certeza?' } })).to.deep.equal({ event: 'dialog_confirm', id: 7, data: { title: undefined, message: 'Certeza?' } });
    expect(parsePluginRequest({ event: 'set-property', id: 'a', data: { label: 'Plano', value: 'Ouro' } })).to.deep.include({ event: 'set-property' });
    expect(parsePluginRequest({ event: 'set-property', data: { label: '', value: 'x' } })).to.equal(undefined);
    expect(parsePluginRequest({ event: 'loading', data: 1 })).to.deep.equal({ event: 'loading', data: true });
    expect(parsePluginRequest({ event: 'navigate', data: { url: 'javascript:alert(1)' } })).to.equal(undefined);
    expect(parsePluginRequest('toast')).to.equal(undefined);
  });

  it('loads the endpoint as configured: no auth secret or token in the frame’s address', () => {
    const src = pluginSrc({ endpoint: 'https://crm.example.com/p?x=1', authSecret: 'segredo' } as { endpoint: string }, 'https://app.balcao.dev');
    expect(src).to.equal('https://crm.example.com/p?x=1');
    expect(src).to.not.match(/auth_secret|segredo|token/);
    expect(pluginOrigin('https://crm.example.com:8443/p', 'https://app.balcao.dev')).to.equal('https://crm.example.com:8443');
  });

  it('a page the product serves itself (/plugins/<name>.html) loads from the app’s own address; no other path is an endpoint', () => {
    expect(pluginEndpointProblem('/plugins/exemplo-pedidos.html')).to.equal(undefined);
    expect(pluginSrc({ endpoint: '/plugins/exemplo-pedidos.html' }, 'http://localhost:3000')).to.equal('http://localhost:3000/plugins/exemplo-pedidos.html');
    expect(pluginOrigin('/plugins/exemplo-pedidos.html', 'http://localhost:3000')).to.equal('http://localhost:3000');
    for (const path of ['/api/workspace', '/plugins/../api/x.html', '//evil.example/plugins/a.html', '/plugins/a.js', '/plugins/', 'plugins/a.html', '/plugins/A.html?x=1']) {
      expect(pluginEndpointProblem(path), path).to.be.a('string');
    }
  });

  it('accepts a plugin’s request for a fresh token (auth), with its id', () => {
    expect(parsePluginRequest({ event: 'auth', id: 'r1' })).to.deep.equal({ event: 'auth', id: 'r1' });
    expect(parsePluginRequest({ event: 'auth', id: { x: 1 } })).to.equal(undefined);
  });
});
