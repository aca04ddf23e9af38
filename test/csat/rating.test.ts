import { expect } from 'chai';
import { parseRating } from '../../api/csat/rating';
import { csatInstructions } from '../../api/csat/schema';

describe('CSAT: a customer’s text read as a rating (docs/csat.md "Answers")', () => {
  it('a lone digit 1–5, with or without a comment after a separator', () => {
    expect(parseRating('5')).to.deep.equal({ rating: 5, comment: null });
    expect(parseRating(' 4\n')).to.deep.equal({ rating: 4, comment: null });
    expect(parseRating('3 - demorou um pouco')).to.deep.equal({ rating: 3, comment: 'demorou um pouco' });
    expect(parseRating('1, péssimo')).to.deep.equal({ rating: 1, comment: 'péssimo' });
    expect(parseRating('2. Não resolveram.')).to.deep.equal({ rating: 2, comment: 'Não resolveram.' });
    expect(parseRating('5!')).to.deep.equal({ rating: 5, comment: null });
  });

  it('keycaps, the scale’s faces and stars', () => {
    expect(parseRating('4️⃣')).to.deep.equal({ rating: 4, comment: null });
    expect(parseRating('😍 amei')).to.deep.equal({ rating: 5, comment: 'amei' });
    expect(parseRating('😡')).to.deep.equal({ rating: 1, comment: null });
    expect(parseRating('⭐⭐⭐')).to.deep.equal({ rating: 3, comment: null });
    expect(parseRating('★★★★★ perfeito')).to.deep.equal({ rating: 5, comment: 'perfeito' });
  });

  it('anything else is no answer: other numbers, decimals, words first', () => {
    for (const text of ['0', '6', '10', '55', '12345', '4.5', '3,5', 'cinco', 'obrigado 5', '', '   ', '5ótimo', 'Oi, tudo bem?']) {
      expect(parseRating(text), text).to.equal(null);
    }
  });

  it('an e-mail reply keeps only what was written above the quoted message', () => {
    expect(parseRating('5 ótimo atendimento\n\nEm seg., 1 de dez. de 2026 às 10:00, Loja <loja@exemplo.com> escreveu:\n> Como você avalia?')).to.deep.equal({ rating: 5, comment: 'ótimo atendimento' });
  });

  it('a long comment is cut at 1000 characters', () => {
    expect(parseRating(`2 ${'a'.repeat(2000)}`)?.comment).to.have.length(1000);
  });

  it('text channels say how to answer, by digit or by face', () => {
    expect(csatInstructions('numbers')).to.contain('1 (muito insatisfeito) a 5 (muito satisfeito)');
    expect(csatInstructions('emojis')).to.contain('5 😍');
  });
});
