// The agent's version: set by `npm run package:rig` (the package's version and its inputs' hash);
// from the sources (tsx) it is the package's version marked as a development run.
declare const __PADDOCK_RIG_VERSION__: string | undefined;

export const AGENT_VERSION: string =
  typeof __PADDOCK_RIG_VERSION__ === 'string' ? __PADDOCK_RIG_VERSION__ : '0.1.0-dev';
