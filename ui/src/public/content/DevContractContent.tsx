/** Placeholder while the full page is written (docs/public-site-content.md). */
export const DEV_CONTRACT_STOPS = [0, 2000, 4000, 6000, 8000, 10000, 22000] as const;

export function DevContractContent() {
  return <article className="site-content" />;
}
