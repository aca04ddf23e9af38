import { createHmac } from 'node:crypto';
import { expect } from 'chai';
import { signedDownloadUrl, verifyDownloadSignature } from '../../api/assets/signedUrl';
import { signReportAuthorization, verifyReportAuthorization } from '../../api/campaigns/reportLink';
import { signedHtmlViewUrl, verifyHtmlView } from '../../api/channels/email/htmlView';
import { signLink, verifyLink } from '../../api/http/signedLink';

describe('signed links: each kind signs with a key of its own, and links made before the shared helper still verify', () => {
  const config = { jwtSecret: 'x'.repeat(48), publicUrl: 'https://balcao.example' };
  const now = Date.UTC(2026, 0, 1, 12, 0, 0);
  const query = (url: string) => {
    const u = new URL(url, config.publicUrl);
    return { exp: u.searchParams.get('exp'), sig: u.searchParams.get('sig') };
  };

  it('a download signature never passes for an e-mail HTML view of the same id, nor the other way round', () => {
    const download = query(signedDownloadUrl(config, '12', now));
    const view = query(signedHtmlViewUrl(config, 12, now));
    expect(verifyDownloadSignature(config, '12', download.exp, download.sig, now)).to.equal(true);
    expect(verifyHtmlView(config, 12, view.exp, view.sig, now)).to.equal(true);
    expect(verifyHtmlView(config, 12, download.exp, download.sig, now)).to.equal(false);
    expect(verifyDownloadSignature(config, '12', view.exp, view.sig, now)).to.equal(false);
  });

  it('a report authorization is bound to its campaign and workspace', () => {
    const auth = signReportAuthorization(config, 7, 31, now);
    expect(verifyReportAuthorization(config, 31, auth, now)).to.equal(7);
    expect(verifyReportAuthorization(config, 32, auth, now)).to.equal(undefined);
    const [, exp, sig] = auth.split('.');
    expect(verifyReportAuthorization(config, 31, `8.${exp}.${sig}`, now)).to.equal(undefined);
    expect(verifyReportAuthorization(config, 31, auth, (Number(exp) + 1) * 1000)).to.equal(undefined);
  });

  it("signs as each kind's own code did before: HMAC-SHA256 under HMAC(JWT secret, purpose), of the fields and the expiry one per line", () => {
    const key = createHmac('sha256', config.jwtSecret).update('balcao:campaigns:report:v1').digest();
    const before = createHmac('sha256', key).update(`7\n31\n1767272400`).digest('base64url');
    expect(signLink(config.jwtSecret, 'balcao:campaigns:report:v1', [7, 31], 1767272400)).to.equal(before);
    expect(verifyLink(config.jwtSecret, 'balcao:campaigns:report:v1', [7, 31], '1767272400', before, now)).to.equal(true);
    // Fields are not glued: [7, 31] and [73, 1] sign differently.
    expect(verifyLink(config.jwtSecret, 'balcao:campaigns:report:v1', [73, 1], '1767272400', before, now)).to.equal(false);
  });
});
