import { PLANS } from '../../../../api/billing/plans';
import { OPERATOR } from './operator';

/**
 * /ganhomais: the partner (referral) programme 'Ganhe mais' (SPEC §2 names the route, not its content).
 * Rules and figures: docs/decisions.md "/ganhomais: the referral programme". Plain text, no JavaScript.
 */

/** Commission on what the referred customer pays, during the first months of their subscription. */
export const REFERRAL_COMMISSION_PERCENT = 20;
export const REFERRAL_COMMISSION_MONTHS = 12;
/** The referred customer's discount (a coupon: percent off for a number of charges). */
export const REFERRAL_DISCOUNT_PERCENT = 10;
export const REFERRAL_DISCOUNT_CHARGES = 3;
/** Smallest payout; less is carried to the next month. */
export const REFERRAL_MIN_PAYOUT = 50;

const brl = new Intl.NumberFormat('pt-BR', { style: 'currency', currency: 'BRL' });

/** Commission on a monthly plan over the commission months, the discounted charges counted as paid. */
export function referralExample(monthlyPrice: number): { discountedMonth: number; fullMonth: number; total: number } {
  const pct = REFERRAL_COMMISSION_PERCENT / 100;
  const cents = (v: number) => Math.round(v * 100) / 100;
  const discountedMonth = cents(monthlyPrice * (1 - REFERRAL_DISCOUNT_PERCENT / 100) * pct);
  const fullMonth = cents(monthlyPrice * pct);
  const total = cents(discountedMonth * REFERRAL_DISCOUNT_CHARGES + fullMonth * (REFERRAL_COMMISSION_MONTHS - REFERRAL_DISCOUNT_CHARGES));
  return { discountedMonth, fullMonth, total };
}

/** The public plans at the prices api/billing/plans.ts charges (in reais), as /pricing shows them. */
const EXAMPLES = [PLANS.basic, PLANS.business, PLANS.enterprise].map((p) => ({ plan: p.name, price: p.monthlyPrice / 100 }));

export function GanhoMaisContent() {
  return (
    <article className="site-ganhomais">
      <header>
        <h1>Ganhe mais indicando o Balcão</h1>
        <p className="site-lead">
          Conhece empresas que atendem clientes pelo WhatsApp, Instagram ou pelo site? Indique o Balcão: elas ganham{' '}
          {REFERRAL_DISCOUNT_PERCENT}% de desconto nas {REFERRAL_DISCOUNT_CHARGES} primeiras mensalidades e você recebe{' '}
          {REFERRAL_COMMISSION_PERCENT}% de tudo o que elas pagarem nos primeiros {REFERRAL_COMMISSION_MONTHS} meses.
        </p>
        <p>
          <a className="site-button" href={OPERATOR.contactHref}>
            Quero ser parceiro
          </a>
        </p>
      </header>

      <section aria-labelledby="ganhomais-como">
        <h2 id="ganhomais-como">Como funciona</h2>
        <ol>
          <li>
            <strong>Cadastre-se como parceiro.</strong> Envie o seu nome, CPF ou CNPJ e a chave Pix da conta de mesma titularidade. Você
            recebe um cupom pessoal, como <code>GANHE-SUAEMPRESA</code>.
          </li>
          <li>
            <strong>Indique.</strong> A empresa indicada informa o seu cupom ao assinar, em Configurações › Assinatura, e ganha{' '}
            {REFERRAL_DISCOUNT_PERCENT}% de desconto nas {REFERRAL_DISCOUNT_CHARGES} primeiras cobranças mensais.
          </li>
          <li>
            <strong>Receba.</strong> A cada pagamento confirmado da indicada, {REFERRAL_COMMISSION_PERCENT}% do valor pago vira comissão sua,
            por {REFERRAL_COMMISSION_MONTHS} meses a contar do primeiro pagamento.
          </li>
        </ol>
      </section>

      <section aria-labelledby="ganhomais-exemplo">
        <h2 id="ganhomais-exemplo">Quanto você pode ganhar</h2>
        <table className="site-table">
          <caption>
            Comissão por uma empresa indicada em plano mensal, sem adicionais, nos {REFERRAL_COMMISSION_MONTHS} primeiros meses
          </caption>
          <thead>
            <tr>
              <th scope="col">Plano da indicada</th>
              <th scope="col">Comissão nos {REFERRAL_DISCOUNT_CHARGES} primeiros meses (com o desconto)</th>
              <th scope="col">Comissão nos meses seguintes</th>
              <th scope="col">Total em {REFERRAL_COMMISSION_MONTHS} meses</th>
            </tr>
          </thead>
          <tbody>
            {EXAMPLES.map(({ plan, price }) => {
              const e = referralExample(price);
              return (
                <tr key={plan}>
                  <th scope="row">
                    {plan} ({brl.format(price)}/mês)
                  </th>
                  <td>{brl.format(e.discountedMonth)} por mês</td>
                  <td>{brl.format(e.fullMonth)} por mês</td>
                  <td>{brl.format(e.total)}</td>
                </tr>
              );
            })}
          </tbody>
        </table>
        <p>
          Adicionais (agentes, linhas de WhatsApp, campanhas) entram na conta, porque a comissão é sobre o valor pago. Em planos anuais, a
          comissão é de {REFERRAL_COMMISSION_PERCENT}% do pagamento anual, uma vez.
        </p>
      </section>

      <section aria-labelledby="ganhomais-regras">
        <h2 id="ganhomais-regras">Regras</h2>
        <ul>
          <li>
            <strong>Quem conta como indicação:</strong> uma empresa que nunca pagou o Balcão e usa o seu cupom no primeiro pagamento. A
            avaliação gratuita não gera comissão; a comissão começa no primeiro pagamento.
          </li>
          <li>
            <strong>Uma indicação por empresa:</strong> vale o cupom usado no primeiro pagamento. Não vale indicar a própria empresa, empresas
            do mesmo grupo ou criar contas para si mesmo.
          </li>
          <li>
            <strong>Sobre o que é calculada:</strong> sobre o valor efetivamente pago pela indicada, já descontados cupons e
            créditos. Pagamentos não confirmados, cobranças canceladas e períodos não pagos não geram comissão.
          </li>
          <li>
            <strong>Quando é paga:</strong> a comissão fica disponível 30 dias depois de confirmado o pagamento da indicada e é paga por Pix
            até o dia 10 do mês seguinte, a partir de {brl.format(REFERRAL_MIN_PAYOUT)} acumulados; valores menores passam para o mês
            seguinte.
          </li>
          <li>
            <strong>Cancelamento da indicada:</strong> as comissões param junto com os pagamentos; as já disponíveis continuam sendo suas.
          </li>
          <li>
            <strong>Impostos:</strong> parceiros com CNPJ emitem nota fiscal do valor; para parceiros pessoa física, retemos os tributos que a
            lei exigir.
          </li>
          <li>
            <strong>Divulgação responsável:</strong> vale divulgar nas suas redes, no seu site e para os seus clientes. Não vale enviar spam,
            comprar anúncios com a marca Balcão, apresentar-se como o Balcão ou prometer o que o produto não faz. Quem descumprir é
            descadastrado e perde as comissões ainda não pagas.
          </li>
          <li>
            <strong>Mudanças no programa:</strong> as regras podem mudar com aviso de 30 dias por e-mail; comissões de indicações já feitas
            seguem as regras da data da indicação.
          </li>
        </ul>
        <p>
          A participação no programa não cria vínculo de emprego, sociedade ou representação comercial com {OPERATOR.legalLine}.
        </p>
      </section>
    </article>
  );
}
