import polyglotI18nProvider from 'ra-i18n-polyglot';
import { ptBR } from './ptBR';

/** react-admin's translations. Our own texts are plain strings from `texts`: polyglot passes them through. */
export const i18nProvider = polyglotI18nProvider(() => ptBR, 'pt-BR', [{ locale: 'pt-BR', name: 'Português' }], { allowMissing: true });
