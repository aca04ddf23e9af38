/**
 * The public site's client entry, on the pages that hold an island (ui/src/public/site/islands.ts): hydrates
 * each `<div data-island="NAME">` the server rendered. The build aliases react and react-dom to preact/compat
 * (ui/site/vitePlugin.ts), so this and the island components are written against React's API and ship
 * Preact; the vite dev server runs them on React itself.
 */
import { hydrateRoot } from 'react-dom/client';
import { ISLANDS, type IslandName } from '../src/public/site/islands';

for (const el of document.querySelectorAll<HTMLElement>('[data-island]')) {
  const name = el.dataset.island as IslandName;
  const Component = ISLANDS[name];
  if (Component) hydrateRoot(el, <Component />);
}
