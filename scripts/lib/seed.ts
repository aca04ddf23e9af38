/** The demo workspace of `npm start`: one module per area under scripts/lib/seed/ (docs/demo.md). */
export { seedDemo, DEMO_LOGIN, type SeedOptions } from './seed/index';
