import simpleRestProvider from 'ra-data-simple-rest';
import { raHttpClient } from './httpClient';

/** Resources speak react-admin's simple-rest dialect under /api (DESIGN.md §3), through our httpClient. */
export const dataProvider = simpleRestProvider('/api', raHttpClient);
