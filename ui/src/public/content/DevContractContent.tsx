import { useEffect, useId, useState } from 'react';

/**
 * /desenvolvimento: the development-contract price page (SPEC §2 Public: a price slider from 0 to 22000 with
 * steps 2000, 4000, 6000, 8000, 10000, 22000). Hydrated as an island; without JavaScript the table of tiers
 * is the whole page (the slider stays hidden until hydration). Design: docs/decisions.md
 * "Development-contract price page".
 */

/** The slider's positions, in reais: 0 plus SPEC's steps. */
export const DEV_CONTRACT_STOPS = [0, 2000, 4000, 6000, 8000, 10000, 22000] as const;

/** Price of one hour of custom development, in reais (every tier is a whole number of hours). */
export const DEV_HOUR_PRICE = 200;

export interface DevTier {
  price: (typeof DEV_CONTRACT_STOPS)[number];
  hours: number;
  name: string;
  /** What the hours typically buy. */
  buys: string;
}

export const DEV_CONTRACT_TIERS: DevTier[] = [
  {
    price: 0,
    hours: 0,
    name: 'Faça você mesmo',
    buys: 'Sem contrato: use o token de API, os webhooks, os plugins e o canal personalizado do seu plano, com a documentação do Balcão.',
  },
  {
    price: 2000,
    hours: 10,
    name: 'Ajuste',
    buys: 'Um webhook ou plugin simples, como mostrar os pedidos do seu sistema ao lado da conversa, ou um bot montado e testado com você.',
  },
  {
    price: 4000,
    hours: 20,
    name: 'Integração',
    buys: 'Uma integração com o seu sistema (ERP, CRM ou loja virtual) pela API, ou um bot que consulta a sua API e grava as respostas no contato.',
  },
  {
    price: 6000,
    hours: 30,
    name: 'Integração ampliada',
    buys: 'Uma integração nos dois sentidos, com webhooks e plugin, ou um canal personalizado ligando um sistema de mensagens próprio ao Balcão.',
  },
  {
    price: 8000,
    hours: 40,
    name: 'Projeto',
    buys: 'Duas integrações, ou uma integração com importação dos contatos e do histórico de outro sistema.',
  },
  {
    price: 10000,
    hours: 50,
    name: 'Projeto ampliado',
    buys: 'Várias integrações e bots sob medida para mais de uma equipe, com documentação do que foi feito.',
  },
  {
    price: 22000,
    hours: 110,
    name: 'Sob medida',
    buys: 'Um projeto completo: integrações, canal personalizado, plugins e bots, com acompanhamento depois da entrega até o fim das horas.',
  },
];

const brl = new Intl.NumberFormat('pt-BR', { style: 'currency', currency: 'BRL', maximumFractionDigits: 0, minimumFractionDigits: 0 });

/** R$ in pt-BR, whole reais: 'R$ 22.000'. */
export function formatBRL(value: number): string {
  return brl.format(value);
}

function hoursText(hours: number): string {
  if (hours === 0) return 'sem horas contratadas';
  return `${hours} horas de desenvolvimento`;
}

/** What a screen reader says for a slider position. */
export function tierValueText(tier: DevTier): string {
  return `${formatBRL(tier.price)}: ${tier.name}, ${hoursText(tier.hours)}`;
}

export function DevContractContent() {
  const [index, setIndex] = useState(2);
  // The slider only works with JavaScript: prerendered without it, it shows once hydrated (same first render).
  const [enhanced, setEnhanced] = useState(false);
  useEffect(() => setEnhanced(true), []);
  const sliderId = useId();
  const tier = DEV_CONTRACT_TIERS[index];

  return (
    <article className="site-dev">
      <header>
        <h1>Desenvolvimento sob medida</h1>
        <p className="site-lead">
          Precisa ligar o Balcão ao seu sistema, criar um plugin ou um bot que consulta os seus dados? Contrate horas do nosso time de
          desenvolvimento, num pacote de valor único, além da assinatura.
        </p>
      </header>

      <section className="site-dev-slider" aria-labelledby={`${sliderId}-titulo`} hidden={!enhanced}>
        <h2 id={`${sliderId}-titulo`}>Escolha o pacote</h2>
        <label htmlFor={sliderId}>Valor do contrato</label>
        <input
          id={sliderId}
          type="range"
          min={0}
          max={DEV_CONTRACT_STOPS.length - 1}
          step={1}
          value={index}
          aria-valuetext={tierValueText(tier)}
          onChange={(e) => setIndex(Number(e.currentTarget.value))}
        />
        <div className="site-dev-scale" aria-hidden="true">
          {DEV_CONTRACT_STOPS.map((stop, i) => (
            <span key={stop} className={i === index ? 'site-dev-stop site-dev-stop-active' : 'site-dev-stop'}>
              {stop === 0 ? 'R$ 0' : `${stop / 1000} mil`}
            </span>
          ))}
        </div>
        <output htmlFor={sliderId} className="site-dev-result" aria-live="polite">
          <span className="site-dev-price">{formatBRL(tier.price)}</span>
          <span className="site-dev-tier">
            {tier.name} · {hoursText(tier.hours)}
          </span>
          <span className="site-dev-buys">{tier.buys}</span>
        </output>
      </section>

      <section aria-labelledby={`${sliderId}-tabela`}>
        <h2 id={`${sliderId}-tabela`}>Todos os pacotes</h2>
        <table className="site-table">
          <caption>Pacotes de desenvolvimento, a {formatBRL(DEV_HOUR_PRICE)} por hora</caption>
          <thead>
            <tr>
              <th scope="col">Valor</th>
              <th scope="col">Pacote</th>
              <th scope="col">Horas</th>
              <th scope="col">O que costuma caber</th>
            </tr>
          </thead>
          <tbody>
            {DEV_CONTRACT_TIERS.map((t) => (
              <tr key={t.price}>
                <td>{formatBRL(t.price)}</td>
                <th scope="row">{t.name}</th>
                <td>{t.hours}</td>
                <td>{t.buys}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </section>

      <section aria-labelledby={`${sliderId}-como`}>
        <h2 id={`${sliderId}-como`}>Como funciona</h2>
        <ol>
          <li>Você conta o que precisa e nós respondemos com o escopo e o pacote indicado, sem compromisso.</li>
          <li>O pacote é pago uma única vez, por Pix ou boleto, e não muda o valor da sua assinatura.</li>
          <li>As horas valem por 6 meses e são descontadas conforme o trabalho, com um relatório a cada entrega.</li>
        </ol>
        <p>
          Para começar, fale com o nosso time comercial pelo contato da <a href="/pricing">página de preços</a>.
        </p>
      </section>
    </article>
  );
}
