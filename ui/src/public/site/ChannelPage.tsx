import { CHANNEL_PAGES, type ChannelPage as ChannelPageContent } from '../content/channels';
import { Svg } from './Layout';
import { Section } from './Section';
import { siteTexts } from './texts';

const t = siteTexts.channel;

/**
 * The template of /whatsapp, /facebook, /telegram, /instagram, /email, /features and /bot (SPEC §2 Public):
 * icon, title, description, banner, signup link, then the sections and screenshots of ../content/channels.ts.
 * The banner is the page's largest paint, so it loads at once; the screenshots below it load lazily.
 */
export function ChannelPage({ page }: { page: ChannelPageContent }) {
  const others = CHANNEL_PAGES.filter((c) => c.key !== page.key);
  return (
    <>
      <section className="hero hero-channel">
        <div className="wrap channel-head">
          <div>
            <Svg markup={page.iconSvg} className="icon icon-large" />
            <h1>{page.heading}</h1>
            <p className="lead">{page.lead}</p>
            <p className="cta-actions">
              <a className="btn btn-primary btn-large" href="/user/register">
                {t.cta}
              </a>
              <a className="btn btn-outline btn-large" href="/pricing">
                {t.pricing}
              </a>
            </p>
            <p className="small">{t.ctaText}</p>
          </div>
          <img
            className="banner"
            src={page.banner.src}
            alt={page.banner.alt}
            width={page.banner.width}
            height={page.banner.height}
            fetchPriority="high"
            decoding="async"
          />
        </div>
      </section>

      <section className="section" aria-label={page.heading}>
        <div className="wrap">
          <ul className="cards cards-text">
            {page.sections.map((s) => (
              <li key={s.title} className="card">
                <h2>{s.title}</h2>
                <p>{s.text}</p>
              </li>
            ))}
          </ul>
          {page.screenshots.map((s) => (
            <figure key={s.src} className="shot">
              <img src={s.src} alt={s.alt} width={s.width} height={s.height} loading="lazy" decoding="async" />
              <figcaption>{s.alt}</figcaption>
            </figure>
          ))}
        </div>
      </section>

      <Section id="outros-canais" title={t.others} alt>
        <ul className="chips">
          {others.map((c) => (
            <li key={c.key}>
              <a href={c.path}>
                <Svg markup={c.iconSvg} className="icon" />
                {siteTexts.channelNames[c.key]}
              </a>
            </li>
          ))}
        </ul>
        <p className="cta-actions">
          <a className="btn btn-primary btn-large" href="/user/register">
            {t.cta}
          </a>
        </p>
      </Section>
    </>
  );
}
