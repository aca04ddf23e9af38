import { LegalDocument, type LegalSection } from './legal';
import { OPERATOR } from './operator';

/**
 * /privacy: Política de Privacidade under the LGPD (Lei 13.709/2018). What it says is collected and stored
 * locally is what the product keeps (docs/public-site-content.md "Privacy: what the code keeps").
 */
const SECTIONS: LegalSection[] = [
  {
    id: 'quem-somos',
    title: 'Quem somos e a quem esta política se aplica',
    body: (
      <>
        <p>
          O {OPERATOR.brand} é uma plataforma de atendimento multicanal operada por {OPERATOR.legalLine}, com sede em {OPERATOR.address}. Esta
          política explica como tratamos dados pessoais, nos termos da Lei Geral de Proteção de Dados Pessoais (LGPD, Lei 13.709/2018), de:
        </p>
        <ul>
          <li>visitantes deste site;</li>
          <li>pessoas que criam conta ou são convidadas para um workspace (Usuários);</li>
          <li>
            clientes finais das empresas que usam o Balcão (Contatos), que conversam com elas por WhatsApp, Telegram, Messenger, Instagram,
            e-mail ou pelo chat do site.
          </li>
        </ul>
      </>
    ),
  },
  {
    id: 'papeis',
    title: 'Controlador e operador',
    body: (
      <>
        <p>
          <strong>Dados de conta</strong> (Usuários, faturamento, uso do serviço): o {OPERATOR.brand} é o <strong>controlador</strong> e
          decide como e por que esses dados são tratados.
        </p>
        <p>
          <strong>Dados dos Contatos dos workspaces</strong> (conversas, contatos, arquivos): cada empresa que usa o Balcão é a{' '}
          <strong>controladora</strong>, e o {OPERATOR.brand} atua como <strong>operador</strong>, tratando esses dados apenas para prestar o
          serviço, segundo as instruções da empresa e os nossos <a href="/terms">Termos de Uso</a>. Se você conversou com uma empresa pelo
          Balcão, os pedidos sobre os seus dados devem ser feitos a ela; se chegarem a nós, nós os encaminharemos.
        </p>
      </>
    ),
  },
  {
    id: 'dados-coletados',
    title: 'Quais dados tratamos',
    body: (
      <>
        <h3>Dados de conta</h3>
        <ul>
          <li>nome, e-mail, telefone e foto de perfil dos Usuários, e o nome e o logo do workspace;</li>
          <li>a senha, guardada apenas de forma irreversível (hash), nunca em texto;</li>
          <li>
            dados de faturamento: CPF ou CNPJ e nome do pagador, e-mail de cobrança, plano, faturas e situação dos pagamentos;
          </li>
          <li>
            os aparelhos em que o Usuário ativou notificações (o endereço de envio fornecido pelo navegador e uma descrição do aparelho).
          </li>
        </ul>
        <h3>Dados dos Contatos dos workspaces</h3>
        <ul>
          <li>
            identificação no canal: número de WhatsApp, conta do Telegram, perfil do Messenger ou do Instagram (nome e foto fornecidos pela
            Meta), endereço de e-mail ou o identificador do visitante do chat do site;
          </li>
          <li>nome, e-mail, telefone e os campos que a empresa cadastrar ou que o Contato informar ao bot ou ao formulário do chat;</li>
          <li>as mensagens trocadas, os arquivos, áudios e imagens enviados e recebidos, notas internas, etiquetas e protocolos;</li>
          <li>a situação de entrega e leitura das mensagens.</li>
        </ul>
        <h3>Dados de uso</h3>
        <ul>
          <li>
            registros técnicos das requisições ao serviço (data, hora, endereço IP, rota acessada e erros), usados para segurança, limites
            contra abuso e diagnóstico;
          </li>
          <li>registros das ações no workspace necessários ao funcionamento e aos relatórios (atribuições, atendimentos, tempos de resposta).</li>
        </ul>
      </>
    ),
  },
  {
    id: 'cookies',
    title: 'Cookies e armazenamento no navegador',
    body: (
      <>
        <p>
          O Balcão <strong>não usa cookies</strong>, nem de publicidade nem de análise, e não carrega ferramentas de rastreamento de
          terceiros. O aplicativo usa o armazenamento local do navegador (<em>localStorage</em> e <em>sessionStorage</em>) somente para
          funcionar:
        </p>
        <ul>
          <li>a sessão do Usuário (dados do login e o token de acesso ao workspace), apagada ao sair;</li>
          <li>
            preferências da tela: cores do tema, som de novas mensagens, tamanho dos painéis da caixa de entrada, filtros dos relatórios e a
            disponibilidade do agente;
          </li>
          <li>
            no aplicativo instalável, uma cópia dos arquivos da própria interface (páginas, scripts e ícones), sem conversas nem dados de
            clientes.
          </li>
        </ul>
        <p>
          O <strong>chat do site</strong> guarda no navegador do visitante, no armazenamento local do site onde está instalado, apenas o
          identificador e o token da conversa daquele widget, para que o visitante reencontre a conversa quando voltar. Ele não usa cookies.
        </p>
      </>
    ),
  },
  {
    id: 'finalidades-e-bases-legais',
    title: 'Para que usamos os dados e com qual base legal',
    body: (
      <table className="site-table">
        <caption>Finalidades e bases legais (LGPD, art. 7º)</caption>
        <thead>
          <tr>
            <th scope="col">Finalidade</th>
            <th scope="col">Base legal</th>
          </tr>
        </thead>
        <tbody>
          <tr>
            <td>Criar e manter a conta, autenticar Usuários, prestar o serviço contratado e o suporte</td>
            <td>Execução de contrato (art. 7º, V)</td>
          </tr>
          <tr>
            <td>Cobrar a assinatura e emitir documentos fiscais</td>
            <td>Execução de contrato (art. 7º, V) e cumprimento de obrigação legal (art. 7º, II)</td>
          </tr>
          <tr>
            <td>Guardar registros de acesso pelo prazo do Marco Civil da Internet</td>
            <td>Cumprimento de obrigação legal (art. 7º, II)</td>
          </tr>
          <tr>
            <td>Segurança, prevenção de fraudes e abusos, limites de uso e diagnóstico de falhas</td>
            <td>Legítimo interesse (art. 7º, IX) e proteção do crédito (art. 7º, X) quando for o caso</td>
          </tr>
          <tr>
            <td>E-mails sobre a conta, a assinatura, faturas e mudanças nos Termos</td>
            <td>Execução de contrato (art. 7º, V)</td>
          </tr>
          <tr>
            <td>Notificações no aparelho do Usuário</td>
            <td>Consentimento (art. 7º, I), dado ao ativá-las, e revogável a qualquer momento</td>
          </tr>
          <tr>
            <td>Tratar os dados dos Contatos em nome das empresas</td>
            <td>Base legal definida pela empresa controladora; nós seguimos as suas instruções</td>
          </tr>
          <tr>
            <td>Defesa em processos judiciais, administrativos ou arbitrais</td>
            <td>Exercício regular de direitos (art. 7º, VI)</td>
          </tr>
        </tbody>
      </table>
    ),
  },
  {
    id: 'compartilhamento',
    title: 'Com quem compartilhamos',
    body: (
      <>
        <p>Não vendemos dados pessoais. Compartilhamos apenas o necessário para prestar o serviço, com estes suboperadores:</p>
        <ul>
          <li>
            <strong>Meta Platforms</strong> (WhatsApp, Messenger e Instagram): as mensagens e arquivos das conversas desses canais passam pelos
            servidores da Meta, que os entrega aos Contatos;
          </li>
          <li>
            <strong>Telegram</strong>: as mensagens e arquivos das conversas com o bot da empresa;
          </li>
          <li>
            <strong>provedores de e-mail</strong>: o servidor de envio usado pelo Balcão (ou o servidor SMTP da própria empresa, quando ela o
            configura) para as respostas do canal de e-mail e os e-mails da conta;
          </li>
          <li>
            <strong>Asaas</strong> (instituição de pagamento): nome, CPF ou CNPJ e e-mail do pagador e os valores, para gerar Pix e boletos e
            confirmar pagamentos;
          </li>
          <li>
            <strong>provedor de hospedagem</strong> ({OPERATOR.hostingProvider}): os servidores e o banco de dados onde o Balcão roda;
          </li>
          <li>
            <strong>serviços de notificação dos navegadores</strong> (Google, Mozilla, Apple), que entregam as notificações do aplicativo, com
            o conteúdo cifrado.
          </li>
        </ul>
        <p>
          Quando a empresa configura webhooks, plugins, integrações de bot ou o token de API, os dados vão para os sistemas que <em>ela</em>{' '}
          escolheu, sob a responsabilidade dela. Também podemos fornecer dados a autoridades, quando a lei ou uma ordem judicial exigir.
        </p>
      </>
    ),
  },
  {
    id: 'transferencia-internacional',
    title: 'Transferência internacional',
    body: (
      <p>
        Alguns suboperadores, como a Meta, o Telegram e os serviços de notificação, tratam dados fora do Brasil. Essas transferências ocorrem
        porque são necessárias para prestar o serviço contratado (LGPD, art. 33, IX, com o art. 7º, V) e, quando aplicável, com as garantias
        previstas no art. 33, como as cláusulas-padrão contratuais aprovadas pela ANPD. Ao conectar um desses canais, a empresa escolhe usar
        o serviço desse terceiro, com as suas próprias políticas.
      </p>
    ),
  },
  {
    id: 'retencao',
    title: 'Por quanto tempo guardamos',
    body: (
      <ul>
        <li>
          <strong>Dados dos Contatos e conversas:</strong> enquanto o workspace existir, ou até a empresa excluí-los (excluir um canal exclui
          as suas conversas, mensagens e arquivos). Encerrado o contrato ou expirado o plano, guardamos o workspace por 90 dias, para que a
          empresa possa voltar ou exportar os seus dados, e depois o excluímos.
        </li>
        <li>
          <strong>Dados de conta:</strong> enquanto a conta estiver ativa e, depois do encerramento, pelo tempo necessário para cumprir
          obrigações legais e exercer direitos.
        </li>
        <li>
          <strong>Dados de faturamento:</strong> por 5 anos após o pagamento, como exige a legislação fiscal.
        </li>
        <li>
          <strong>Registros de acesso:</strong> por 6 meses, como exige o Marco Civil da Internet (Lei 12.965/2014, art. 15), ou mais quando
          uma autoridade pedir.
        </li>
        <li>
          <strong>Armazenamento no navegador:</strong> a sessão é apagada ao sair; o token do visitante do chat fica no navegador dele até
          ser apagado pelo próprio visitante.
        </li>
      </ul>
    ),
  },
  {
    id: 'direitos',
    title: 'Seus direitos como titular',
    body: (
      <>
        <p>O art. 18 da LGPD garante ao titular de dados pessoais, mediante requisição:</p>
        <ol>
          <li>a confirmação da existência de tratamento;</li>
          <li>o acesso aos dados;</li>
          <li>a correção de dados incompletos, inexatos ou desatualizados;</li>
          <li>a anonimização, o bloqueio ou a eliminação de dados desnecessários, excessivos ou tratados em desconformidade com a lei;</li>
          <li>a portabilidade dos dados a outro fornecedor de serviço ou produto, observados os segredos comercial e industrial;</li>
          <li>a eliminação dos dados tratados com o consentimento do titular, salvo nas hipóteses de guarda previstas em lei;</li>
          <li>a informação das entidades públicas e privadas com as quais compartilhamos os dados;</li>
          <li>a informação sobre a possibilidade de não fornecer consentimento e sobre as consequências da negativa;</li>
          <li>a revogação do consentimento.</li>
        </ol>
        <p>
          O titular também pode pedir a revisão de decisões tomadas unicamente com base em tratamento automatizado (art. 20) e peticionar à
          Autoridade Nacional de Proteção de Dados (ANPD).
        </p>
        <p>
          <strong>Como pedir:</strong> escreva ao encarregado em {OPERATOR.dpoEmail}, dizendo qual direito deseja exercer. Podemos pedir
          informações para confirmar a sua identidade. Respondemos em até 15 dias. Usuários também corrigem os próprios dados em Configurações
          › Perfil, e as empresas exportam os seus contatos em Contatos › Exportar para Email. Pedidos de Contatos sobre conversas com uma empresa são
          encaminhados a ela, que é a controladora.
        </p>
      </>
    ),
  },
  {
    id: 'seguranca',
    title: 'Segurança',
    body: (
      <>
        <p>Adotamos medidas técnicas e administrativas para proteger os dados, entre elas:</p>
        <ul>
          <li>senhas guardadas com argon2id e tokens de API guardados apenas como hash;</li>
          <li>credenciais dos canais (tokens da Meta e do Telegram, sessões do WhatsApp, senhas de SMTP) cifradas com AES-256-GCM;</li>
          <li>
            isolamento entre workspaces em todas as consultas e níveis de acesso por Usuário, que definem quais conversas cada um vê;
          </li>
          <li>
            e-mails exibidos isolados do aplicativo, sem scripts, e com imagens externas bloqueadas até o Usuário pedir, para evitar
            rastreamento;
          </li>
          <li>conexões cifradas (HTTPS), limites contra abuso e registros para investigar incidentes.</li>
        </ul>
        <p>
          Nenhum sistema é totalmente seguro. Se houver um incidente de segurança que possa causar risco ou dano relevante aos titulares,
          comunicaremos a ANPD e os afetados, como manda o art. 48 da LGPD, e as empresas clientes, quando envolver dados dos seus Contatos.
        </p>
      </>
    ),
  },
  {
    id: 'criancas',
    title: 'Crianças e adolescentes',
    body: (
      <p>
        O Balcão é um serviço para empresas e não é dirigido a menores de 18 anos. As empresas que atendem crianças e adolescentes pelo Balcão
        são responsáveis por tratar esses dados no seu melhor interesse, como exige o art. 14 da LGPD.
      </p>
    ),
  },
  {
    id: 'encarregado',
    title: 'Encarregado de dados (DPO)',
    body: (
      <p>
        O encarregado pelo tratamento de dados pessoais do {OPERATOR.brand} é {OPERATOR.dpoName}, que atende pelo e-mail {OPERATOR.dpoEmail}.
        Ele recebe as reclamações e comunicações dos titulares e da ANPD.
      </p>
    ),
  },
  {
    id: 'alteracoes',
    title: 'Alterações desta política',
    body: (
      <p>
        Podemos atualizar esta política quando o serviço, os suboperadores ou a lei mudarem. A versão vigente fica sempre nesta página, com a
        data da última atualização; mudanças relevantes serão avisadas por e-mail ou no próprio Balcão antes de valer.
      </p>
    ),
  },
];

export function PrivacyContent() {
  return (
    <LegalDocument
      title="Política de Privacidade"
      intro={
        <p>
          A sua privacidade e a dos clientes das empresas que usam o {OPERATOR.brand} importam para nós. Esta política vale junto com os{' '}
          <a href="/terms">Termos de Uso</a>.
        </p>
      }
      sections={SECTIONS}
    />
  );
}
