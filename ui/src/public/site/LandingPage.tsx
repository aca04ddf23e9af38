import { PLANS } from '../../../../api/billing/plans';
import { CHANNEL_PAGES } from '../content/channels';
import { brl } from './format';
import { Svg } from './Layout';
import { Section } from './Section';
import { fill, siteTexts } from './texts';

const t = siteTexts.landing;

const CHECK =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24" width="20" height="20" fill="none" stroke="currentColor" stroke-width="2.2" stroke-linecap="round" stroke-linejoin="round"><path d="M5 12.5l4.2 4.2L19 7"/></svg>';

/**
 * `/`: the free-trial offer (SPEC §1, the 30-day reading) and the e-mail box. The box is a plain GET form, so
 * it reaches /user/register?email=… with JavaScript off too; a visitor with a session is sent to /inbox by
 * the head script (siteScript.ts) before anything is painted.
 */
export function LandingPage() {
  return (
    <>
      <section className="hero">
        <div className="wrap">
          <div className="hero-copy">
            <h1>{t.title}</h1>
            <p className="lead">{t.subtitle}</p>
            <p className="trial">{t.trial}</p>
            <form className="signup" action="/user/register" method="get">
              <label htmlFor="landing-email">{t.emailLabel}</label>
              <div className="signup-row">
                <input id="landing-email" name="email" type="email" autoComplete="email" inputMode="email" placeholder={t.emailPlaceholder} />
                <button type="submit" className="btn btn-primary btn-large">
                  {t.start}
                </button>
              </div>
            </form>
          </div>
        </div>
      </section>

      <div className="wrap">
        <img className="screenshot" src="/site/img/inbox.webp" alt={t.screenshotAlt} width={1200} height={750} loading="lazy" decoding="async" />
      </div>

      <Section id="canais" title={t.channelsTitle}>
        <p className="section-lead">{t.channelsLead}</p>
        <ul className="cards">
          {CHANNEL_PAGES.map((c) => (
            <li key={c.key} className="card">
              <Svg markup={c.iconSvg} className="icon" />
              <h3>
                <a href={c.path}>{c.heading}</a>
              </h3>
              <p>{c.description}</p>
              <span className="more" aria-hidden="true">
                {t.more} →
              </span>
            </li>
          ))}
        </ul>
      </Section>

      <Section id="equipes" title={t.featuresTitle} alt>
        <ul className="checks">
          {t.features.map((f) => (
            <li key={f}>
              <Svg markup={CHECK} className="check" />
              {f}
            </li>
          ))}
        </ul>
      </Section>

      <Section id="planos" title={fill(t.pricingTitle, { price: brl(PLANS.basic.monthlyPrice) })} wrap="cta">
        <p>{t.pricingText}</p>
        <p className="cta-actions">
          <a className="btn btn-outline btn-large" href="/pricing">
            {t.pricingLink}
          </a>
          <a className="btn btn-primary btn-large" href="/user/register">
            {t.start}
          </a>
        </p>
      </Section>
    </>
  );
}
