import type { Knex } from 'knex';
import type { ConversationViewer } from '../policy/conversations';
import { agentsReport, conversationsReport } from './figures';
import type { ReportScope } from './filters';
import { customersReport, tagsReport } from './lists';

/** The reports that can be exported by e-mail (SPEC §7: the report path + '/export/email'). */
export const EXPORT_KINDS = ['conversations', 'team', 'tags', 'customers'] as const;
export type ExportKind = (typeof EXPORT_KINDS)[number];

export const EXPORT_TITLES: Record<ExportKind, string> = {
  conversations: 'Relatório de Conversas',
  team: 'Equipe',
  tags: 'Relatório de Etiquetas',
  customers: 'Relatório de Contatos',
};

export const MODE_LABELS = {
  calendar: 'Tempo corrido (horário comercial desligado)',
  businessHours: 'Somente horário comercial',
};

/** A cell of an export: text, or a number (seconds, counts). Never a formula. */
export type ExportCell = string | number | null;

/** What both files of an export hold: lines saying what the report is, then a header and the rows. */
export interface ExportTable {
  title: string;
  /** 'Período: …', 'Modo: …', 'Fuso horário: …' — the first lines of both files. */
  about: string[];
  header: string[];
  /** A pass over the rows (exportFilesOf reads them once for both files). */
  rows: () => AsyncIterable<ExportCell[]> | Iterable<ExportCell[]>;
}

const br = (day: string) => `${day.slice(8, 10)}/${day.slice(5, 7)}/${day.slice(0, 4)}`;
const sec = (n: number | null) => (n === null ? null : Math.round(n));
const TIME_HEADER = (name: string) => [`${name} média (s)`, `${name} mediana (s)`, `${name} P90 (s)`];
type Times = Record<string, unknown>;
const timeCells = (r: Times, field: string) => [sec(r[field] as number | null), sec(r[`${field}Median`] as number | null), sec(r[`${field}P90`] as number | null)];

function about(scope: ReportScope, withMode: boolean): string[] {
  const lines = [`Período: ${br(scope.from)} a ${br(scope.to)}`, `Fuso horário: ${scope.timeZone}`];
  if (withMode) lines.push(`Modo: ${scope.businessHours ? MODE_LABELS.businessHours : MODE_LABELS.calendar}`);
  if (scope.ownOnly) lines.push('Somente os seus próprios atendimentos.');
  return lines;
}

/** Contacts in pages of 1,000 (the contacts report can be long; memory stays bounded). */
async function* customerRows(db: Knex, scope: ReportScope, viewer: ConversationViewer, byCreation: boolean): AsyncGenerator<ExportCell[]> {
  for (let offset = 0; ; offset += 1000) {
    const page = await customersReport(db, scope, viewer, 1000, offset, byCreation);
    for (const c of page.data) yield [c.name ?? '', c.email ?? '', c.phone ?? '', c.channels.map((ch) => ch.label).join(', ')];
    if (page.data.length < 1000) return;
  }
}

/**
 * The table of one report with the scope the requester may see (the same figures as the page: the scope
 * was resolved for them, so below level 6 it holds only their own calls).
 */
export async function exportTable(db: Knex, kind: ExportKind, scope: ReportScope, viewer: ConversationViewer, byCreation = false): Promise<ExportTable> {
  const title = EXPORT_TITLES[kind];
  if (kind === 'conversations') {
    const report = await conversationsReport(db, scope);
    const line = (label: string, r: Times & { newConversations: number; resolvedConversations: number }): ExportCell[] => [label, ...timeCells(r, 'firstTimeResponse'), ...timeCells(r, 'timeResponse'), ...timeCells(r, 'resolutionTime'), r.newConversations, r.resolvedConversations];
    return {
      title,
      about: about(scope, true),
      header: ['Período', ...TIME_HEADER('TME'), ...TIME_HEADER('TMR'), ...TIME_HEADER('TMA'), 'Novas', 'Resolvidas'],
      rows: () => [...report.rows.map((r) => line(r.labelLong, r)), line('Total', report.summary)],
    };
  }
  if (kind === 'team') {
    const rows = await agentsReport(db, scope);
    return {
      title,
      about: about(scope, true),
      header: ['Nome', ...TIME_HEADER('Primeira resposta'), ...TIME_HEADER('Tempo de resposta'), ...TIME_HEADER('Tempo de atendimento'), 'Total', 'Resolvidas'],
      rows: () => rows.map((r) => [r.name, ...timeCells(r, 'firstTimeResponse'), ...timeCells(r, 'timeResponse'), ...timeCells(r, 'resolutionTime'), r.totalConversations, r.resolvedConversations]),
    };
  }
  if (kind === 'tags') {
    const report = await tagsReport(db, scope, viewer.operatorId);
    return { title, about: about(scope, false), header: ['Etiqueta', 'Vezes usada'], rows: () => (report.rows as { name: string; used: number }[]).map((r) => [r.name, r.used]) };
  }
  return {
    title,
    about: byCreation ? [`Contato criado entre ${br(scope.from)} e ${br(scope.to)}`] : [],
    header: ['Nome', 'E-mail', 'Celular', 'Canal de atendimento'],
    rows: () => customerRows(db, scope, viewer, byCreation),
  };
}
