import { ANNUAL_MONTHS, EXTRA_PRICES, PLANS, periodPrice, type Plan } from '../../../../api/billing/plans';
import { brl } from './format';
import { PLACEHOLDERS } from './placeholders';
import { Section } from './Section';
import { fill, plural, siteTexts } from './texts';

const t = siteTexts.pricing;
const f = t.features;

/** What each plan's card lists (SPEC §1), before the units its price includes. */
const PLAN_CARDS: { plan: Plan; features: string[]; highlight?: boolean }[] = [
  { plan: PLANS.basic, features: [f.channels, f.widget, f.reports, f.unlimited, f.app] },
  { plan: PLANS.business, features: [f.basicPlus, f.bot], highlight: true },
  { plan: PLANS.enterprise, features: [f.businessPlus, f.campaigns] },
];

function campaignsText(n: number): string {
  return n === 0 ? t.campaigns.none : plural(t.campaigns, n);
}

const EXTRAS = [
  { name: t.extras.agents, price: EXTRA_PRICES.agents },
  { name: t.extras.whatsapp, price: EXTRA_PRICES.whatsapp },
  { name: t.extras.campaign, price: EXTRA_PRICES.campaign },
];

/** The 'Plano personalizado' contact dialog: a modal with JavaScript (siteScript.ts), a :target box without. */
function ContactDialog() {
  return (
    <dialog id="contato" className="modal" aria-labelledby="contato-titulo">
      <div className="modal-box">
        <h2 id="contato-titulo">{t.contactTitle}</h2>
        <p>{t.contactText}</p>
        <ul className="contacts">
          <li>
            {t.phone}: <a href={`tel:${PLACEHOLDERS.supportTel1}`}>{PLACEHOLDERS.supportPhone1}</a>
          </li>
          <li>
            {t.phone}: <a href={`tel:${PLACEHOLDERS.supportTel2}`}>{PLACEHOLDERS.supportPhone2}</a>
          </li>
          <li>
            {t.email}: <a href={`mailto:${PLACEHOLDERS.supportEmail}`}>{PLACEHOLDERS.supportEmail}</a>
          </li>
        </ul>
        <a className="btn btn-outline" href="#personalizado" data-close="">
          {t.close}
        </a>
      </div>
    </dialog>
  );
}

/**
 * `/pricing`: the plans of SPEC §1 with the prices api/billing/plans.ts charges (monthly, and the annual price
 * as periodPrice computes it), the add-ons, Pix or Boleto, the 16 MB limit, the FAQ at #faq and the contact
 * dialog of the custom plan.
 */
export function PricingPage() {
  return (
    <>
      <section className="page-head">
        <div className="wrap">
          <h1>{t.title}</h1>
          <p className="lead">{t.lead}</p>
        </div>
      </section>

      <section className="section" aria-label={t.title}>
        <div className="wrap">
          <ul className="plans">
            {PLAN_CARDS.map(({ plan, features, highlight }) => (
              <li key={plan.license} className={highlight ? 'plan plan-highlight' : 'plan'}>
                <h2>{plan.name}</h2>
                {highlight && <p className="badge">{t.popular}</p>}
                <p className="price">
                  <strong>{brl(plan.monthlyPrice)}</strong>
                  <span>{t.perMonth}</span>
                </p>
                <p className="price-year">{fill(t.perYear, { price: brl(periodPrice(plan, plan.included, ANNUAL_MONTHS)) })}</p>
                <ul className="plan-features">
                  {features.map((x) => (
                    <li key={x}>{x}</li>
                  ))}
                  <li>{plural(t.agents, plan.included.agents)}</li>
                  <li>{plural(t.lines, plan.included.whatsapp)}</li>
                  <li>{campaignsText(plan.included.campaign)}</li>
                </ul>
                <a className={highlight ? 'btn btn-primary' : 'btn btn-outline'} href="/user/register">
                  {t.choose}
                </a>
              </li>
            ))}
            <li id="personalizado" className="plan plan-custom">
              <h2>{t.custom}</h2>
              <p>{t.customText}</p>
              <a className="btn btn-outline" href="#contato">
                {t.contact}
              </a>
            </li>
          </ul>
        </div>
      </section>

      <Section id="adicionais" title={t.extrasTitle} alt>
        <p className="section-lead">{t.extrasLead}</p>
        <ul className="extras">
          {EXTRAS.map((x) => (
            <li key={x.name}>
              <span>{x.name}</span>
              <strong>{fill(t.extraPrice, { price: brl(x.price) })}</strong>
            </li>
          ))}
        </ul>
        <p className="note">{t.instagram}</p>
        <ul className="facts">
          <li>
            <h3>{t.paymentTitle}</h3>
            <p className="fact">{t.payment}</p>
            <p>{t.paymentText}</p>
          </li>
          <li>
            <h3>{t.filesTitle}</h3>
            <p className="fact">{t.files}</p>
            <p>{t.filesText}</p>
          </li>
          <li>
            <h3>{t.annualTitle}</h3>
            <p className="fact">{fill(t.annual, { n: ANNUAL_MONTHS })}</p>
            <p>{fill(t.annualText, { n: ANNUAL_MONTHS })}</p>
          </li>
        </ul>
      </Section>

      <Section id="faq-titulo" title={t.faqTitle} anchor="faq" wrap="narrow">
        <div className="faq">
          {t.faq.map((item) => (
            <div key={item.q}>
              <h3>{item.q}</h3>
              <p>{item.a}</p>
            </div>
          ))}
        </div>
      </Section>
      <ContactDialog />
    </>
  );
}
