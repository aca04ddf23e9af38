import { LegalDocument, type LegalSection } from './legal';
import { OPERATOR } from './operator';

/**
 * /terms: the Termos de Uso (SPEC §1 "Terms", §9). 17 numbered sections. The operator's identity, forum and
 * contacts are placeholders from ./operator (docs/public-site-content.md).
 */
const SECTIONS: LegalSection[] = [
  {
    id: 'definicoes',
    title: 'Definições',
    body: (
      <>
        <p>Nestes Termos, as palavras abaixo têm o seguinte sentido:</p>
        <dl>
          <dt>Balcão</dt>
          <dd>
            a plataforma de atendimento multicanal oferecida como serviço pela internet, operada por {OPERATOR.legalLine}, com sede em{' '}
            {OPERATOR.address} (“nós”).
          </dd>
          <dt>Cliente</dt>
          <dd>a empresa ou o profissional que cria um workspace e contrata o Balcão (“você”).</dd>
          <dt>Workspace</dt>
          <dd>o ambiente de uma empresa no Balcão, com seus agentes, canais, configurações, dados e plano.</dd>
          <dt>Usuário</dt>
          <dd>cada pessoa com login no workspace do Cliente (proprietário, administradores, supervisores e agentes).</dd>
          <dt>Contato</dt>
          <dd>o cliente final do Cliente, que conversa com o workspace por um dos canais.</dd>
          <dt>Canal</dt>
          <dd>
            cada meio conectado ao workspace: WhatsApp, Telegram, Facebook Messenger, Instagram Direct, e-mail, chat do site (widget) ou canal
            personalizado.
          </dd>
          <dt>Plano</dt>
          <dd>a modalidade contratada (Basic, Business, Enterprise ou plano personalizado), com seus limites e adicionais.</dd>
          <dt>Dados do Cliente</dt>
          <dd>as conversas, contatos, arquivos e demais informações que o Cliente e seus Contatos inserem no Balcão.</dd>
        </dl>
      </>
    ),
  },
  {
    id: 'aceitacao',
    title: 'Aceitação destes Termos',
    body: (
      <>
        <p>
          Ao criar uma conta, iniciar uma avaliação ou contratar um plano, o Cliente declara que leu e aceita estes Termos e a{' '}
          <a href="/privacy">Política de Privacidade</a>. Quem aceita em nome de uma empresa declara ter poderes para obrigá-la.
        </p>
        <p>
          O Balcão é destinado a empresas e profissionais, para uso no atendimento aos seus próprios clientes. O Usuário deve ter pelo menos 18
          anos.
        </p>
      </>
    ),
  },
  {
    id: 'servico',
    title: 'O serviço',
    body: (
      <>
        <p>
          O Balcão reúne numa caixa de entrada compartilhada as conversas dos canais conectados pelo Cliente e oferece, conforme o plano,
          etiquetas, frases rápidas, grupos, distribuição automática, horário comercial, bots, campanhas de WhatsApp, webhooks, plugins, token
          de API, relatórios e aplicativo instalável.
        </p>
        <p>Limites que valem para todos os planos:</p>
        <ul>
          <li>cada arquivo enviado ou recebido pode ter até 16 MB, em todas as plataformas;</li>
          <li>os arquivos de um workspace ocupam até 10 GB de armazenamento;</li>
          <li>
            o número de agentes ativos, de linhas de WhatsApp e de campanhas simultâneas é o do plano, somado aos adicionais contratados.
          </li>
        </ul>
        <p>
          Cada canal depende do serviço de um terceiro (Meta, Telegram, provedores de e-mail). O que cada canal faz é descrito nas páginas do
          site e pode mudar quando esses terceiros mudarem as suas regras.
        </p>
      </>
    ),
  },
  {
    id: 'avaliacao',
    title: 'Avaliação gratuita',
    body: (
      <>
        <p>
          Todo novo workspace começa com um período de avaliação gratuita de <strong>7 dias</strong>, com os recursos e limites do plano
          Business. A avaliação é concedida <strong>uma única vez por e-mail comercial único</strong>: novas contas criadas com o mesmo e-mail,
          ou para contornar esse limite, não dão direito a nova avaliação.
        </p>
        <p>
          Ofertas promocionais anunciadas no site, como a avaliação de 30 dias sem cartão de crédito com todos os recursos exceto Campanhas,
          prevalecem sobre o prazo acima enquanto estiverem anunciadas, nas condições da própria oferta.
        </p>
        <p>
          A avaliação não exige meio de pagamento e não se converte em cobrança automática. Ao seu fim, para continuar enviando mensagens o
          Cliente deve contratar um plano; sem isso, o workspace passa à situação descrita na seção{' '}
          <a href="#inadimplencia">Pagamento em atraso e suspensão</a>.
        </p>
      </>
    ),
  },
  {
    id: 'conta',
    title: 'Conta, acesso e segurança',
    body: (
      <>
        <ul>
          <li>
            <strong>Um login por pessoa.</strong> Cada Usuário tem o seu próprio login; é proibido compartilhar um login entre várias pessoas.
            Cada agente ativo conta no limite de agentes do plano.
          </li>
          <li>As informações de cadastro devem ser verdadeiras e mantidas atualizadas.</li>
          <li>
            O Cliente é responsável pelo que os seus Usuários fazem no workspace, pelos níveis de acesso que lhes dá e por desativar quem não
            deve mais ter acesso.
          </li>
          <li>
            Senhas, tokens de API e credenciais dos canais são confidenciais. Avise-nos imediatamente em {OPERATOR.contactEmail} se suspeitar de
            acesso indevido.
          </li>
        </ul>
      </>
    ),
  },
  {
    id: 'planos-e-pagamento',
    title: 'Planos, pagamento e renovação',
    body: (
      <>
        <p>
          Os planos, adicionais e preços vigentes estão na página de <a href="/pricing">preços</a>. O plano personalizado é contratado pelo
          nosso time comercial, nas condições da proposta.
        </p>
        <ul>
          <li>
            <strong>Pagamento antecipado:</strong> a cobrança é <strong>mensal ou anual</strong>, sempre paga antes do período que cobre. O
            plano anual equivale a 12 meses.
          </li>
          <li>
            <strong>Formas de pagamento:</strong> <strong>Pix ou Boleto</strong>. Os pagamentos são processados pelo nosso provedor de
            cobrança.
          </li>
          <li>
            <strong>Renovação automática:</strong> a assinatura se renova automaticamente, por igual período, <strong>no mesmo dia</strong> do
            mês em que começou (em meses mais curtos, no último dia do mês). A fatura da renovação é emitida 7 dias antes do fim do período e
            enviada por e-mail com o link de pagamento.
          </li>
          <li>
            <strong>Mudança de plano:</strong> ao passar para um plano mais caro, o tempo não usado do plano atual vira crédito e o Cliente paga
            a diferença; a passagem para um plano mais barato vale a partir da próxima renovação.
          </li>
          <li>Cupons de desconto valem nas condições de cada cupom (percentual e número de cobranças).</li>
        </ul>
      </>
    ),
  },
  {
    id: 'alteracao-de-precos',
    title: 'Alteração de preços',
    body: (
      <p>
        Podemos alterar os preços dos planos e adicionais. Toda alteração será comunicada com <strong>7 dias de antecedência</strong>, por
        e-mail e no próprio Balcão, e vale a partir da renovação seguinte ao aviso. Um período já pago não muda de preço. Quem não concordar pode
        cancelar a renovação antes da nova cobrança.
      </p>
    ),
  },
  {
    id: 'cancelamento',
    title: 'Cancelamento e reembolso',
    body: (
      <>
        <p>
          O Cliente pode cancelar a assinatura a qualquer momento em Configurações › Assinatura. O cancelamento interrompe a renovação
          automática, e o acesso continua normalmente <strong>até o fim do período já pago</strong>.
        </p>
        <p>
          <strong>Não há reembolso</strong>, integral ou proporcional, de valores já pagos, inclusive no cancelamento antes do fim do período.
          Para não receber a fatura de renovação, cancele até 8 dias antes do fim do período; uma fatura de renovação ainda não paga é
          cancelada junto com a assinatura.
        </p>
      </>
    ),
  },
  {
    id: 'inadimplencia',
    title: 'Pagamento em atraso e suspensão',
    body: (
      <>
        <p>
          Se a renovação não for paga até o fim do período, o workspace continua funcionando por uma carência de 3 dias, para que a
          compensação de um boleto pago no vencimento seja confirmada. Passada a carência sem pagamento, ou terminada a avaliação sem
          contratação, o plano expira e o serviço fica suspenso em parte:
        </p>
        <ul>
          <li>os Usuários continuam entrando, lendo as conversas e podendo pagar;</li>
          <li>não é possível enviar mensagens aos Contatos nem criar ou retomar campanhas;</li>
          <li>o pagamento reativa o plano, e um novo período começa no dia do pagamento.</li>
        </ul>
        <p>
          Os Dados do Cliente de um workspace expirado são guardados pelo prazo da <a href="/privacy#retencao">Política de Privacidade</a> e
          podem ser excluídos depois dele.
        </p>
      </>
    ),
  },
  {
    id: 'uso-aceitavel',
    title: 'Uso aceitável',
    body: (
      <>
        <p>O Cliente se compromete a usar o Balcão de forma lícita e, em especial, a:</p>
        <ul>
          <li>
            cumprir os termos e políticas de cada canal, como os Termos de Serviço do WhatsApp, a Política do WhatsApp Business e as políticas
            de mensagens da Meta (Messenger e Instagram), os termos do Telegram e as regras dos provedores de e-mail;
          </li>
          <li>
            <strong>não enviar spam:</strong> enviar mensagens ativas e campanhas apenas a quem consentiu em recebê-las, respeitar
            imediatamente os pedidos de descadastro e não usar listas compradas ou obtidas sem base legal;
          </li>
          <li>
            não enviar conteúdo ilegal, enganoso, discriminatório, que viole direitos de terceiros ou que contenha código malicioso;
          </li>
          <li>
            não tentar acessar dados de outros workspaces, contornar limites do plano ou medidas de segurança, nem sobrecarregar o serviço
            com tráfego automatizado fora da API documentada;
          </li>
          <li>não revender ou sublicenciar o Balcão sem um contrato específico conosco.</li>
        </ul>
        <p>
          Os provedores dos canais podem limitar, suspender ou banir números, páginas, contas ou bots que violem as suas políticas; isso
          inclui linhas de WhatsApp conectadas por QR Code. O Balcão não responde por essas medidas. Podemos suspender, sem aviso prévio, o
          envio de mensagens de um workspace que esteja violando esta seção, comunicando o motivo ao Cliente.
        </p>
      </>
    ),
  },
  {
    id: 'dados-do-cliente',
    title: 'Dados do Cliente e proteção de dados',
    body: (
      <>
        <p>
          Os Dados do Cliente pertencem ao Cliente. Usamos esses dados somente para prestar o serviço, conforme as instruções do Cliente e a
          Lei Geral de Proteção de Dados Pessoais (LGPD, Lei 13.709/2018).
        </p>
        <p>
          Em relação aos dados pessoais dos Contatos, o Cliente é o controlador e o Balcão atua como operador. Cabe ao Cliente ter base legal
          para tratar esses dados e para contatar cada pessoa, e atender aos pedidos dos titulares; nós o ajudaremos no que depender do
          serviço. Os dados de cadastro dos Usuários são tratados por nós como controladores.
        </p>
        <p>
          Como tratamos dados pessoais, com quem os compartilhamos e como exercer os direitos do titular está na{' '}
          <a href="/privacy">Política de Privacidade</a>, que faz parte destes Termos.
        </p>
      </>
    ),
  },
  {
    id: 'disponibilidade-e-suporte',
    title: 'Disponibilidade e suporte',
    body: (
      <>
        <p>
          Trabalhamos para manter o Balcão disponível 24 horas por dia, mas não garantimos
          funcionamento ininterrupto. Manutenções programadas serão avisadas com antecedência sempre que possível.
        </p>
        <p>
          Não respondemos por indisponibilidades causadas pelos serviços dos canais (Meta, Telegram, provedores de e-mail), pela internet ou
          pelos equipamentos do Cliente, nem por mudanças que esses terceiros façam nas suas plataformas.
        </p>
        <p>
          O suporte é prestado em português, em dias úteis, pelo e-mail {OPERATOR.contactEmail} e pelos contatos indicados no próprio Balcão.
        </p>
      </>
    ),
  },
  {
    id: 'propriedade-intelectual',
    title: 'Propriedade intelectual',
    body: (
      <p>
        O software, a marca, o site e a documentação do Balcão são nossos ou de nossos licenciantes. O Cliente recebe, enquanto durar a
        assinatura ou a avaliação, uma licença de uso não exclusiva e intransferível, limitada ao atendimento dos seus próprios clientes.
        Sugestões que o Cliente nos enviar podem ser usadas para melhorar o serviço, sem obrigação de pagamento. Os Dados do Cliente e as
        marcas do Cliente continuam sendo dele.
      </p>
    ),
  },
  {
    id: 'responsabilidade',
    title: 'Limitação de responsabilidade',
    body: (
      <>
        <p>
          Na máxima extensão permitida pela lei, a nossa responsabilidade total perante o Cliente, por qualquer causa relacionada ao Balcão,
          fica limitada ao <strong>valor pago pelo Cliente nos 12 meses</strong> anteriores ao fato que deu origem ao pedido.
        </p>
        <p>
          Não respondemos por lucros cessantes, perda de negócios ou danos indiretos, nem por conteúdo enviado pelo Cliente, por seus Usuários
          ou por seus Contatos. Nada nestes Termos afasta responsabilidades que a lei não permite limitar.
        </p>
      </>
    ),
  },
  {
    id: 'vigencia-e-rescisao',
    title: 'Vigência e encerramento',
    body: (
      <>
        <p>
          Estes Termos valem enquanto o Cliente tiver um workspace no Balcão. O Cliente pode encerrar a relação cancelando a assinatura
          (seção <a href="#cancelamento">Cancelamento e reembolso</a>) e pedindo a exclusão do workspace.
        </p>
        <p>
          Podemos encerrar o contrato em caso de violação grave ou repetida destes Termos, de uso fraudulento ou de ordem de autoridade,
          comunicando o Cliente. Encerrado o contrato, os Dados do Cliente ficam disponíveis pelo prazo da{' '}
          <a href="/privacy#retencao">Política de Privacidade</a> e depois são excluídos, salvo o que a lei obrigar a guardar.
        </p>
      </>
    ),
  },
  {
    id: 'alteracoes-dos-termos',
    title: 'Alterações destes Termos',
    body: (
      <p>
        Podemos atualizar estes Termos para refletir mudanças no serviço, na lei ou nas regras dos canais. A versão vigente fica sempre nesta
        página, com a data da última atualização. Mudanças relevantes serão comunicadas por e-mail ou no Balcão com pelo menos 7 dias de
        antecedência; continuar usando o serviço depois disso significa aceitar a nova versão.
      </p>
    ),
  },
  {
    id: 'lei-foro-e-contato',
    title: 'Lei aplicável, foro e contato',
    body: (
      <>
        <p>
          Estes Termos são regidos pelas leis da República Federativa do Brasil. Fica eleito o foro da comarca de {OPERATOR.forum} para
          resolver qualquer questão relacionada a eles, com renúncia a qualquer outro, por mais privilegiado que seja.
        </p>
        <p>
          Dúvidas sobre estes Termos: {OPERATOR.contactEmail}. {OPERATOR.brand} é operado por {OPERATOR.legalLine}, {OPERATOR.address}.
        </p>
      </>
    ),
  },
];

export const TERMS_SECTION_IDS = SECTIONS.map((s) => s.id);

export function TermsContent() {
  return (
    <LegalDocument
      title="Termos de Uso"
      intro={
        <p>
          Estes Termos regem o uso do {OPERATOR.brand} pelas empresas que o contratam e pelas pessoas que elas cadastram. Leia também a{' '}
          <a href="/privacy">Política de Privacidade</a>.
        </p>
      }
      sections={SECTIONS}
    />
  );
}
