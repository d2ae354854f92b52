#!/usr/bin/env node
// The agent ships TypeScript sources (like @paddock/contract); tsx runs them.
import { register } from 'tsx/esm/api';

register();
await import('../src/cli.ts');
