import type { BotDoc } from './botTypes';
import { exportFile, exportFileName } from './importExport';

/** 'Exportar': the bot file, downloaded by the browser. */
export function downloadBot(doc: BotDoc): void {
  const url = URL.createObjectURL(new Blob([exportFile(doc)], { type: 'application/json' }));
  const a = document.createElement('a');
  a.href = url;
  a.download = exportFileName(doc.name);
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
