import { expect } from 'chai';
import { LAYOUT_MESSAGES, parseCsvContract } from '../../../activities/contracts/layouts';

const HEADER = 'nome;cpf;numero_contrato';
const line = (n: number) => `Cliente ${n};529.982.247-25;CT-${n}`;

describe('contracts: the CSV layout tells how many contract lines it found', () => {
  it('refuses a CSV with five contract lines naming five (reading used to stop at two and say two)', async () => {
    const result = await parseCsvContract(Buffer.from([HEADER, ...[1, 2, 3, 4, 5].map(line)].join('\n')));
    expect(result).to.deep.equal({ ok: false, problems: [LAYOUT_MESSAGES.csvRows(5)] });
  });

  it('a CSV with only its header is refused as having no contract line', async () => {
    const result = await parseCsvContract(Buffer.from(`${HEADER}\n`));
    expect(result).to.deep.equal({ ok: false, problems: [LAYOUT_MESSAGES.csvRows(0)] });
  });

  it('a CSV with one contract line is read', async () => {
    const result = await parseCsvContract(Buffer.from([HEADER, line(1)].join('\n')));
    expect(result).to.deep.equal({ ok: true, contract: { name: 'Cliente 1', cpf: '52998224725', loanNumber: 'CT-1', json: { nome: 'Cliente 1', cpf: '52998224725', numeroContrato: 'CT-1' } } });
  });
});
