/** Placeholder while the full text is written (docs/public-site-content.md). */
export function PrivacyContent() {
  return <article className="site-content" />;
}
