import type { DemoFile } from './conversations';

/** A one-page PDF with the given lines in Helvetica (WinAnsi, so Portuguese accents print). */
function pdf(title: string, lines: string[]): Buffer {
  const esc = (s: string) => s.replace(/[\\()]/g, (c) => `\\${c}`);
  const text = [`BT /F1 18 Tf 56 780 Td (${esc(title)}) Tj ET`, ...lines.map((l, i) => `BT /F1 12 Tf 56 ${744 - i * 20} Td (${esc(l)}) Tj ET`)].join('\n');
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /Font << /F1 5 0 R >> >> /Contents 4 0 R >>',
    `<< /Length ${Buffer.byteLength(text, 'latin1')} >>\nstream\n${text}\nendstream`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>',
  ];
  let body = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((o, i) => {
    offsets.push(Buffer.byteLength(body, 'latin1'));
    body += `${i + 1} 0 obj\n${o}\nendobj\n`;
  });
  const xref = Buffer.byteLength(body, 'latin1');
  body += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('')}`;
  body += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(body, 'latin1');
}

/** The bytes, name and type of each file the history sends. */
export function demoFile(file: DemoFile): { fileName: string; mime: string; bytes: Buffer } {
  switch (file) {
    case 'cardapio':
      return {
        fileName: 'cardapio-encomendas.pdf',
        mime: 'application/pdf',
        bytes: pdf('Padaria Pão Quente - Cardápio de encomendas', [
          'Salgados sortidos (cento) ............ R$ 95,00',
          'Mini quiches (cento) .................. R$ 120,00',
          'Docinhos: brigadeiro, beijinho (cento)  R$ 85,00',
          'Bolo de chocolate com morango (kg) .... R$ 80,00',
          'Torta de limão (inteira) .............. R$ 70,00',
          'Pão de fermentação natural ............ R$ 18,00',
          '',
          'Encomendas com 24 horas de antecedência.',
          'Entrega no Centro e bairros vizinhos: R$ 10,00.',
          'Rua das Flores, 120 - Centro.',
        ]),
      };
  }
}
