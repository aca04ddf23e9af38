import type { ReactNode } from 'react';

/**
 * /terms, /privacy, /ganhomais and /desenvolvimento: the long texts of ../content/ under a page heading. A
 * content component that brings its own <h1> is shown as it is (`hasHeading`), so a page never has two.
 */
export function ContentPage({ title, hasHeading, children }: { title: string; hasHeading: boolean; children: ReactNode }) {
  return (
    <section className="section">
      <div className="wrap narrow content">
        {!hasHeading && <h1>{title}</h1>}
        {children}
      </div>
    </section>
  );
}
