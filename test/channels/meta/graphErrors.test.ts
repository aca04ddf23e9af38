import { expect } from 'chai';
import { messagingSendError } from '../../../api/channels/meta/graphErrors';
import { validHubSignature } from '../../../api/channels/hubSignature';
import { hubSignature, MESSAGING_ERRORS } from '../../fakes/metaMessaging';

describe('Meta Graph errors and webhook signatures', () => {
  const errorOf = (e: { status: number; body: unknown }) => messagingSendError('Facebook', e.status, (e.body as { error: never }).error);

  it('a revoked token (190) disconnects and is not retried', () => {
    expect(errorOf(MESSAGING_ERRORS.tokenRevoked)).to.include({ transient: false, disconnect: true });
  });

  it('outside the window (10/2018278) is a visible failure, neither retried nor disconnecting', () => {
    const e = errorOf(MESSAGING_ERRORS.outsideWindow);
    expect(e).to.include({ transient: false, disconnect: false });
    expect(e.message).to.include('24 horas');
  });

  it('Instagram’s own window refusal (10/2534022) is the same visible failure', () => {
    const e = messagingSendError('Instagram', 400, (MESSAGING_ERRORS.instagramOutsideWindow.body as { error: never }).error);
    expect(e).to.include({ transient: false, disconnect: false });
    expect(e.message).to.equal('Fora da janela de 24 horas: o Instagram só aceita uma resposta até 24 horas depois da última mensagem do cliente.');
  });

  it('a rate limit (613) and a Graph outage (2, HTTP 500) are retried later', () => {
    expect(errorOf(MESSAGING_ERRORS.rateLimit)).to.include({ transient: true, disconnect: false });
    expect(errorOf(MESSAGING_ERRORS.rateLimit).retryAfterMs).to.be.greaterThan(0);
    expect(errorOf(MESSAGING_ERRORS.unavailable)).to.include({ transient: true });
  });

  it('any other refusal fails with Meta’s message', () => {
    const e = messagingSendError('Instagram', 400, { code: 100, message: '(#100) Invalid parameter' });
    expect(e).to.include({ transient: false, disconnect: false });
    expect(e.message).to.equal('O Instagram recusou a mensagem: (#100) Invalid parameter');
  });

  it('X-Hub-Signature-256 is accepted only for the exact bytes and secret', () => {
    const body = Buffer.from('{"object":"page","entry":[]}');
    expect(validHubSignature(body, hubSignature(body.toString(), 's3cr3t'), 's3cr3t')).to.equal(true);
    expect(validHubSignature(body, hubSignature(body.toString(), 'outro'), 's3cr3t')).to.equal(false);
    expect(validHubSignature(Buffer.from(`${body} `), hubSignature(body.toString(), 's3cr3t'), 's3cr3t')).to.equal(false);
    expect(validHubSignature(body, undefined, 's3cr3t')).to.equal(false);
    expect(validHubSignature(body, 'sha1=abc', 's3cr3t')).to.equal(false);
    expect(validHubSignature(body, 'sha256=abc', 's3cr3t')).to.equal(false);
  });
});
