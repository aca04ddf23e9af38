import type { ReactNode } from 'react';

/**
 * A titled band of a public page: its <h2> names it for screen readers (aria-labelledby `id`). `alt` tints
 * it, `wrap` adds classes to its content box (`narrow`, `cta`), `anchor` is an address to link to (#faq).
 */
export function Section({ id, title, alt, wrap, anchor, children }: { id: string; title: ReactNode; alt?: boolean; wrap?: string; anchor?: string; children: ReactNode }) {
  return (
    <section className={alt ? 'section section-alt' : 'section'} id={anchor} aria-labelledby={id}>
      <div className={wrap ? `wrap ${wrap}` : 'wrap'}>
        <h2 id={id}>{title}</h2>
        {children}
      </div>
    </section>
  );
}
