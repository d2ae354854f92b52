import { config } from 'zod/v4/core';
// Every message zod writes itself, in words (decision 0096), installed wherever zod first loads:
// the app shell, which parses nothing, no longer imports it (issue 46).
import '@paddock/contract/zod-messages';

// The app's CSP has no 'unsafe-eval'. Zod 4 compiles a fast object parser with `new Function`
// and, to see whether it may, tries one first: the browser refuses it and prints a CSP violation
// in the console. Jitless mode never tries (decision 0035). vite.config.ts points every `zod`
// import of the web build (the contract's schemas included) at this module, so the switch is
// set before any schema exists, in whichever lazy chunk zod first loads (decision 0045) — and
// the app shell, which parses nothing, does not carry zod at all.
config({ jitless: true });

export * from 'zod/v4';
