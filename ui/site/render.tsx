/**
 * The public site's server entry (docs/public-site.md): ui/site/vitePlugin.ts builds it for Node and calls
 * renderSite() once per build; the vite dev server calls renderPage() per request. React renders every page
 * to static HTML (react-dom/server); an island's subtree is rendered with renderToString inside
 * `<div data-island>`, the markup ui/site/islands.tsx hydrates.
 */
import { renderToStaticMarkup, renderToString } from 'react-dom/server';
import css from '../src/public/site/site.css?inline';
import { PUBLIC_PAGE_PATHS } from '../src/public/routes';
import { ContentPage } from '../src/public/site/ContentPage';
import { ISLANDS, type IslandName } from '../src/public/site/islands';
import { SiteDocument, type SiteAssets } from '../src/public/site/Layout';
import { CONTENT_PAGES, corePages, type SitePage } from '../src/public/site/pages';
import { absolute } from '../src/public/site/placeholders';

export { SITE_SCRIPT } from '../src/public/site/siteScript';

/** A file of the public site, named relative to dist/site/pages/, with `%BALCAO_…%` tokens still in it. */
export interface SiteFile {
  file: string;
  /** The address it answers (`/`, `/pricing`, `/robots.txt`…). */
  path: string;
  body: string;
}

function Island({ name }: { name: IslandName }) {
  const Component = ISLANDS[name];
  return <div data-island={name} dangerouslySetInnerHTML={{ __html: renderToString(<Component />) }} />;
}

function contentPages(): SitePage[] {
  return CONTENT_PAGES.map((spec) => {
    const markup = renderToStaticMarkup(<>{spec.content()}</>);
    const hasHeading = /<h1[\s>]/.test(markup);
    return {
      path: spec.path,
      title: spec.texts.pageTitle,
      description: spec.texts.description,
      body: (
        <ContentPage title={spec.texts.title} hasHeading={hasHeading}>
          {spec.island ? <Island name={spec.island} /> : spec.content()}
        </ContentPage>
      ),
      islands: spec.island ? [spec.island] : [],
    };
  });
}

/** Every page, checked against the route list the SPA and the sitemap share. */
export function sitePages(): SitePage[] {
  const pages = [...corePages(), ...contentPages()];
  const paths = pages.map((p) => p.path).sort();
  const expected = [...PUBLIC_PAGE_PATHS].sort();
  if (JSON.stringify(paths) !== JSON.stringify(expected)) {
    throw new Error(`public site: the pages (${paths.join(' ')}) differ from ui/src/public/routes.ts (${expected.join(' ')})`);
  }
  const titles = new Set<string>();
  for (const p of pages) {
    if (p.description.length > 160) throw new Error(`public site: the description of ${p.path} has ${p.description.length} characters (at most 160)`);
    if (titles.has(p.title)) throw new Error(`public site: two pages are titled "${p.title}"`);
    titles.add(p.title);
  }
  return pages;
}

export const fileOf = (path: string): string => (path === '/' ? 'index.html' : `${path.slice(1)}.html`);

function pageHtml(page: SitePage, assets: Omit<SiteAssets, 'css'>): string {
  const full: SiteAssets = { css, script: assets.script, islands: page.islands.length ? assets.islands : undefined };
  return `<!doctype html>${renderToStaticMarkup(
    <SiteDocument meta={page} assets={full}>
      {page.body}
    </SiteDocument>,
  )}`;
}

function sitemap(paths: readonly string[]): string {
  const urls = paths.map((p) => `  <url><loc>${absolute(p)}</loc></url>`).join('\n');
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls}\n</urlset>\n`;
}

/** The logged-in app's areas and the api are no search result; the public pages and /user/* are. */
const ROBOTS = (origin: string) =>
  ['User-agent: *', 'Allow: /', 'Disallow: /api/', 'Disallow: /inbox', 'Disallow: /reports', 'Disallow: /campaigns', 'Disallow: /settings', 'Disallow: /power-ups', 'Disallow: /contracts', '', `Sitemap: ${origin}/sitemap.xml`, ''].join('\n');

/** The whole site: one HTML file per page, sitemap.xml and robots.txt. */
export function renderSite(assets: Omit<SiteAssets, 'css'>): SiteFile[] {
  const pages = sitePages();
  return [
    ...pages.map((page) => ({ file: fileOf(page.path), path: page.path, body: pageHtml(page, assets) })),
    { file: 'sitemap.xml', path: '/sitemap.xml', body: sitemap(PUBLIC_PAGE_PATHS) },
    { file: 'robots.txt', path: '/robots.txt', body: ROBOTS(absolute('')) },
  ];
}

/** One file by its address (the dev server), or undefined when the site has none there. */
export function renderPage(path: string, assets: Omit<SiteAssets, 'css'>): SiteFile | undefined {
  if (path === '/sitemap.xml' || path === '/robots.txt') return renderSite(assets).find((f) => f.path === path);
  const page = sitePages().find((p) => p.path === path);
  return page && { file: fileOf(page.path), path: page.path, body: pageHtml(page, assets) };
}
