import { config } from 'zod';

// The app's CSP has no 'unsafe-eval'. Zod 4 compiles a fast object parser with `new Function`
// and, to see whether it may, tries one first: the browser refuses it and prints a CSP violation
// in the console. Jitless mode never tries (decision 0035). Imported first by main.tsx, so it
// holds before any schema parses.
config({ jitless: true });
