import type { ReactNode } from 'react';
import { LEGAL_UPDATED_AT } from './operator';

export interface LegalSection {
  id: string;
  title: string;
  body: ReactNode;
}

/**
 * A legal document: its heading, the date of the version, a table of contents and the numbered sections
 * (<section id><h2>n. título</h2>), so each section can be linked as /terms#id.
 */
export function LegalDocument({ title, intro, sections }: { title: string; intro: ReactNode; sections: LegalSection[] }) {
  return (
    <article className="site-legal">
      <header className="site-legal-header">
        <h1>{title}</h1>
        <p className="site-legal-updated">Última atualização: {LEGAL_UPDATED_AT}.</p>
        {intro}
      </header>
      <nav className="site-legal-toc" aria-label="Sumário">
        <p className="site-legal-toc-title">Sumário</p>
        <ol>
          {sections.map((s) => (
            <li key={s.id}>
              <a href={`#${s.id}`}>{s.title}</a>
            </li>
          ))}
        </ol>
      </nav>
      {sections.map((s, i) => (
        <section key={s.id} id={s.id} className="site-legal-section" aria-labelledby={`${s.id}-titulo`}>
          <h2 id={`${s.id}-titulo`}>
            {i + 1}. {s.title}
          </h2>
          {s.body}
        </section>
      ))}
    </article>
  );
}
