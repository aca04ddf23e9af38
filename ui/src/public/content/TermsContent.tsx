/** Placeholder while the full text is written (docs/public-site-content.md). */
export function TermsContent() {
  return <article className="site-content" />;
}
