import type { ReactElement, ReactNode } from 'react';
import { CHANNEL_PAGES } from '../content/channels';
import { DevContractContent } from '../content/DevContractContent';
import { GanhoMaisContent, REFERRAL_COMMISSION_MONTHS, REFERRAL_COMMISSION_PERCENT, REFERRAL_DISCOUNT_CHARGES, REFERRAL_DISCOUNT_PERCENT } from '../content/GanhoMaisContent';
import { PrivacyContent } from '../content/PrivacyContent';
import { TermsContent } from '../content/TermsContent';
import { ChannelPage } from './ChannelPage';
import type { IslandName } from './islands';
import { LandingPage } from './LandingPage';
import type { PageMeta } from './Layout';
import { PricingPage } from './PricingPage';
import { fill, siteTexts } from './texts';

/** One prerendered page: its metadata, its body, and the islands its body holds. */
export interface SitePage extends PageMeta {
  body: ReactElement;
  islands: IslandName[];
}

/**
 * A content page's body; `island` names the component when it is interactive, so the renderer wraps it for
 * hydration. `hasHeading` is decided by the renderer, which sees the content's markup.
 */
export interface ContentSpec {
  path: string;
  texts: { pageTitle: string; title: string; description: string };
  content: () => ReactNode;
  island?: IslandName;
}

const p = siteTexts.pages;
const ganhoMais = {
  ...p.ganhoMais,
  description: fill(p.ganhoMais.description, {
    discount: REFERRAL_DISCOUNT_PERCENT,
    charges: REFERRAL_DISCOUNT_CHARGES,
    commission: REFERRAL_COMMISSION_PERCENT,
    months: REFERRAL_COMMISSION_MONTHS,
  }),
};

export const CONTENT_PAGES: ContentSpec[] = [
  { path: '/terms', texts: p.terms, content: () => <TermsContent /> },
  { path: '/privacy', texts: p.privacy, content: () => <PrivacyContent /> },
  { path: '/ganhomais', texts: ganhoMais, content: () => <GanhoMaisContent /> },
  { path: '/desenvolvimento', texts: p.development, content: () => <DevContractContent />, island: 'dev-contract' },
];

/**
 * Every public page but the content pages (which ui/site/render.tsx assembles, since it renders their
 * markup to look for a heading and to wrap islands).
 */
export function corePages(): SitePage[] {
  return [
    {
      path: '/',
      title: siteTexts.landing.pageTitle,
      description: siteTexts.landing.description,
      body: <LandingPage />,
      islands: [],
    },
    {
      path: '/pricing',
      title: siteTexts.pricing.pageTitle,
      description: siteTexts.pricing.description,
      body: <PricingPage />,
      islands: [],
    },
    ...CHANNEL_PAGES.map(
      (c): SitePage => ({
        path: c.path,
        title: c.title,
        description: c.description,
        image: c.banner,
        body: <ChannelPage page={c} />,
        islands: [],
      }),
    ),
  ];
}
