import type { ComponentType } from 'react';
import { DevContractContent } from '../content/DevContractContent';

/**
 * The interactive parts of the public site that need a component on the client: rendered at build time into
 * `<div data-island="NAME">`, then hydrated by ui/site/islands.tsx (Preact through preact/compat in the
 * build, so a page's JavaScript stays far under 30 kB). The e-mail box (a GET form) and the contact dialog
 * (siteScript.ts) need none.
 */
export const ISLANDS = {
  'dev-contract': DevContractContent,
} satisfies Record<string, ComponentType>;

export type IslandName = keyof typeof ISLANDS;
