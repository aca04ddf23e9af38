import { texts } from '../i18n/ptBR';

/** pt-BR texts of /campaigns, in ui/src/i18n/ptBR.ts (`texts.campaigns`). */
export const campaignTexts = texts.campaigns;
