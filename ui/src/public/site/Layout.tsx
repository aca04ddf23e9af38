import type { ReactNode } from 'react';
import { CHANNEL_PAGES, type SiteImage } from '../content/channels';
import { absolute } from './placeholders';
import { siteTexts as t } from './texts';

/** What every public page tells the browser, search engines and link previews. */
export interface PageMeta {
  path: string;
  /** The <title>. */
  title: string;
  /** Meta description and og:description (at most 160 characters). */
  description: string;
  /** og:image; a page without one shares DEFAULT_IMAGE (og.jpg). */
  image?: SiteImage;
}

/** The files a page links to, named by the build (hashed) or the dev server. */
export interface SiteAssets {
  /** The site's CSS, inlined in <head>. */
  css: string;
  /** The tiny classic script in <head> (ui/src/public/site/siteScript.ts). */
  script: string;
  /** The islands' module (ui/site/islands.tsx): only on pages that have one. */
  islands?: string;
}

/** The image link previews show for a page without its own (1200×630 JPEG, scripts/siteScreenshots.ts). */
export const DEFAULT_IMAGE: SiteImage = { src: '/site/img/og.jpg', alt: t.ogImageAlt, width: 1200, height: 630 };

const LOGO =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32" width="32" height="32" aria-hidden="true"><rect width="32" height="32" rx="7" fill="#0f766e"/><path d="M8 10h16v9a3 3 0 0 1-3 3h-5l-5 4v-4a3 3 0 0 1-3-3z" fill="#fff"/></svg>';

/** Inline SVG markup we wrote (the logo, ../content/channels.ts icons), never visitor input. */
export function Svg({ markup, className }: { markup: string; className?: string }) {
  return <span className={className} aria-hidden="true" dangerouslySetInnerHTML={{ __html: markup }} />;
}

function NavLink({ href, current, children, className }: { href: string; current: string; children: ReactNode; className?: string }) {
  return (
    <a href={href} className={className} aria-current={href === current ? 'page' : undefined}>
      {children}
    </a>
  );
}

const channelLinks = CHANNEL_PAGES.map((c) => ({ href: c.path, label: t.channelNames[c.key] }));

export function SiteHeader({ current }: { current: string }) {
  return (
    <header className="site-header">
      <div className="wrap header-row">
        <a className="brand" href="/" aria-label={t.homeLabel}>
          <Svg markup={LOGO} />
          <span>{t.brand}</span>
        </a>
        <nav className="site-nav" aria-label={t.nav.label}>
          <NavLink href="/pricing" current={current}>
            {t.nav.pricing}
          </NavLink>
          {channelLinks.map((l) => (
            <NavLink key={l.href} href={l.href} current={current}>
              {l.label}
            </NavLink>
          ))}
        </nav>
        <div className="header-actions">
          <a className="btn btn-quiet" href="/user/login">
            {t.nav.login}
          </a>
          <a className="btn btn-primary" href="/user/register">
            {t.nav.signup}
          </a>
        </div>
      </div>
    </header>
  );
}

/** The footer's own links (the channel pages' are channelLinks). */
const productLinks = [
  { href: '/pricing', label: t.nav.pricing },
  { href: '/pricing#faq', label: t.footer.faq },
  { href: '/user/register', label: t.nav.signup },
  { href: '/user/login', label: t.nav.login },
];
const companyLinks = [
  { href: '/terms', label: t.footer.terms },
  { href: '/privacy', label: t.footer.privacy },
  { href: '/ganhomais', label: t.footer.ganhoMais },
  { href: '/desenvolvimento', label: t.footer.development },
];

function FooterColumn({ title, links }: { title: string; links: { href: string; label: string }[] }) {
  return (
    <div>
      <h2>{title}</h2>
      <ul>
        {links.map((l) => (
          <li key={l.href}>
            <a href={l.href}>{l.label}</a>
          </li>
        ))}
      </ul>
    </div>
  );
}

export function SiteFooter() {
  return (
    <footer className="site-footer">
      <div className="wrap footer-grid">
        <div>
          <p className="footer-brand">
            <Svg markup={LOGO} />
            <span>{t.brand}</span>
          </p>
          <p>{t.footer.rights}</p>
        </div>
        <FooterColumn title={t.footer.product} links={productLinks} />
        <FooterColumn title={t.footer.channels} links={channelLinks} />
        <FooterColumn title={t.footer.company} links={companyLinks} />
      </div>
    </footer>
  );
}

/** A whole public page: <head> with its metadata, the shared header and footer around `children`. */
export function SiteDocument({ meta, assets, children }: { meta: PageMeta; assets: SiteAssets; children: ReactNode }) {
  const image = meta.image ?? DEFAULT_IMAGE;
  const url = absolute(meta.path);
  return (
    <html lang="pt-BR">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>{meta.title}</title>
        <meta name="description" content={meta.description} />
        <link rel="canonical" href={url} />
        <meta property="og:type" content="website" />
        <meta property="og:site_name" content={t.brand} />
        <meta property="og:locale" content="pt_BR" />
        <meta property="og:title" content={meta.title} />
        <meta property="og:description" content={meta.description} />
        <meta property="og:url" content={url} />
        <meta property="og:image" content={absolute(image.src)} />
        <meta property="og:image:type" content={image.src.endsWith('.webp') ? 'image/webp' : 'image/jpeg'} />
        <meta property="og:image:width" content={String(image.width)} />
        <meta property="og:image:height" content={String(image.height)} />
        <meta property="og:image:alt" content={image.alt} />
        <meta name="twitter:card" content="summary_large_image" />
        <meta name="theme-color" content="#0f2b3a" />
        <link rel="icon" type="image/svg+xml" href="/favicon.svg" />
        <link rel="apple-touch-icon" href="/icons/apple-touch-icon.png" />
        <style dangerouslySetInnerHTML={{ __html: assets.css }} />
        {/* Only `/` must run it before painting (a visitor with a session never sees the landing); elsewhere it waits for the parse. */}
        <script src={assets.script} defer={meta.path !== '/' || undefined} />
      </head>
      <body>
        <a className="skip" href="#conteudo">
          {t.skipToContent}
        </a>
        <SiteHeader current={meta.path} />
        <main id="conteudo">{children}</main>
        <SiteFooter />
        {assets.islands && <script type="module" src={assets.islands} />}
      </body>
    </html>
  );
}
